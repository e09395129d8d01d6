/* publish — a flag raised before the data it announces, awaited by a
 * spin loop on an atomic load with no call in it.  The producer sets
 * `ready` and only then fills `payload`; the consumer spins until it
 * sees `ready` and reads `payload`.  Only a switch between the
 * producer's two stores shows the bug: with `--sched-points=memory` the
 * store to the shared payload is a point.  The spin loop makes no call,
 * so under PCT a consumer of high priority would poll for ever unless
 * green recognised the loop as spinning (a run of loads and no store)
 * and demoted it. */
#include <assert.h>
#include <pthread.h>

static int ready;
static int payload;

static void *producer(void *arg)
{
	__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);   /* the bug: too early */
	payload = 42;
	return arg;
}

static void *consumer(void *arg)
{
	while (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
		;
	assert(payload == 42);
	return arg;
}

int main(void)
{
	pthread_t p, c;
	pthread_create(&c, 0, consumer, 0);
	pthread_create(&p, 0, producer, 0);
	pthread_join(c, 0);
	pthread_join(p, 0);
	return 0;
}
