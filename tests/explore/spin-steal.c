/* spin-steal — a work-stealing queue guarded by a spin lock that backs
 * off with sleep(0) and a zero nanosleep, as such queues often do.  The
 * owner pops tasks from the bottom; a thief steals from the top.  The
 * thief's bug: it looks at the top under the lock, lets the lock go to
 * count the steal under another lock, and takes the task it saw without
 * looking again — by then the owner may have popped that very task, which
 * then runs twice.
 *
 * Under PCT the lock itself once livelocked a schedule: a thief of high
 * priority spinning with sleep(0) while the owner of low priority held
 * the lock (the owner counts its pops inside it) never let the owner run, and
 * the run ended in a timeout.  A sleep of zero is a yield point now: the
 * spinner is demoted and the owner goes on. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define TASKS 12
static int top, bottom;          /* the queue: tasks top..bottom-1 */
static int runs[TASKS];          /* how often each task ran */
static int lockw;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static int steals, pops;

static void spin_lock(int thief)
{
	while (__atomic_exchange_n(&lockw, 1, __ATOMIC_ACQUIRE)) {
		if (thief) sleep(0);
		else nanosleep(&(struct timespec){ 0, 0 }, 0);
	}
}

static void spin_unlock(void)
{
	__atomic_store_n(&lockw, 0, __ATOMIC_RELEASE);
}

static void run(int task)
{
	void *scratch = malloc(32);      /* a task's work */
	runs[task]++;
	free(scratch);
}

static void *thief(void *arg)
{
	for (;;) {
		int t;
		spin_lock(1);
		t = top;
		if (t >= bottom) {
			spin_unlock();
			return 0;
		}
		spin_unlock();                       /* the bug: the lock goes here */
		pthread_mutex_lock(&stats_lock);     /* to count the steal */
		steals++;
		pthread_mutex_unlock(&stats_lock);
		spin_lock(1);
		top = t + 1;                         /* ...and t is not looked at again */
		spin_unlock();
		run(t);
	}
	return arg;
}

int main(void)
{
	pthread_t th;
	bottom = TASKS;
	pthread_create(&th, 0, thief, 0);
	for (;;) {
		int b;
		spin_lock(0);
		if (bottom <= top) {
			spin_unlock();
			break;
		}
		b = --bottom;
		pthread_mutex_lock(&stats_lock);     /* bookkeeping inside the lock */
		pops++;
		pthread_mutex_unlock(&stats_lock);
		spin_unlock();
		run(b);
	}
	pthread_join(th, 0);
	for (int i = 0; i < TASKS; i++)
		assert(runs[i] == 1);
	return 0;
}
