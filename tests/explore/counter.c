/* counter — a race inside one basic block: two threads count hits into
 * one total with an unprotected `hits++` (a load, an add, a store, in
 * one block of straight-line code).  A switch between the load and the
 * store loses the other thread's increments.  No library call and no
 * block boundary falls between them, so neither the library's
 * scheduling points nor `--sched-points` (blocks) can reach the bug;
 * `green-cc --sched-points=memory` offers a point at each access to the
 * shared total. */
#include <assert.h>
#include <pthread.h>

#define ROUNDS 10
static long hits;                  /* shared, unprotected */
static long seen[2];
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void *counter(void *arg)
{
	long *mine = arg;
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&log_lock);   /* its own bookkeeping is locked */
		++*mine;
		pthread_mutex_unlock(&log_lock);
		hits++;                          /* the total is not */
	}
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, counter, &seen[0]);
	pthread_create(&b, 0, counter, &seen[1]);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(hits == seen[0] + seen[1]);
	return 0;
}
