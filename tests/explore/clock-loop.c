/* clock-loop — two threads wait for the wall clock, as programs that
 * retry until gettimeofday has advanced do: a loader that publishes its
 * configuration once a settling delay has passed, and a worker that uses
 * the configuration once the same delay has passed, assuming the loader,
 * started first, is done by then.  Which delay ends first depends on
 * which thread started to wait first: the schedule.
 *
 * On the real clock each run takes the delay in real time, and how many
 * times each loop polls differs from run to run, so no two runs make the
 * same decisions.  Under GREEN_SCHED the clock is virtual: the sleeps end
 * in schedule order at once, and a seed replays with the same hash. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/time.h>
#include <unistd.h>

struct config { int workers; };
static struct config *published;
static struct config loaded = { 4 };
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void settle(void)
{
	struct timeval t0, t;
	gettimeofday(&t0, 0);
	do {
		usleep(100000);
		gettimeofday(&t, 0);
	} while ((t.tv_sec - t0.tv_sec) * 1000000 + (t.tv_usec - t0.tv_usec) < 2000000);
}

static void *loader(void *arg)
{
	settle();
	pthread_mutex_lock(&lock);
	published = &loaded;
	pthread_mutex_unlock(&lock);
	return arg;
}

static void *worker(void *arg)
{
	struct config *c;
	settle();
	pthread_mutex_lock(&lock);
	c = published;
	pthread_mutex_unlock(&lock);
	assert(c != NULL);                /* the loader may not be done */
	return arg;
}

int main(void)
{
	pthread_t l, w;
	pthread_create(&l, 0, loader, 0);
	pthread_create(&w, 0, worker, 0);
	pthread_join(l, 0);
	pthread_join(w, 0);
	return 0;
}
