/*
 * barrier.c — barriers.  The thread that completes the count wakes the
 * others and is the one that gets PTHREAD_BARRIER_SERIAL_THREAD.
 */
#include <errno.h>
#include "green.h"

struct gbarrier {
	unsigned limit, count, gen;   /* gen counts completed rounds */
	struct gq q;
};
_Static_assert(sizeof(struct gbarrier) <= sizeof(pthread_barrier_t), "gbarrier fits");

int pthread_barrier_init(pthread_barrier_t *restrict b, const pthread_barrierattr_t *restrict a, unsigned n)
{
	struct gbarrier *g = (struct gbarrier *)b;
	if (!n) return EINVAL;
	if (a && green_barrierattr_shared(a)) return ENOTSUP;   /* process-shared: docs/sync.md */
	*b = (pthread_barrier_t){ 0 };
	g->limit = n;
	return 0;
}

int pthread_barrier_destroy(pthread_barrier_t *b)
{
	struct gbarrier *g = (struct gbarrier *)b;
	return g->count ? EBUSY : 0;
}

int pthread_barrier_wait(pthread_barrier_t *b)
{
	struct gbarrier *g = (struct gbarrier *)b;
	struct green_thread *t;
	unsigned gen;

	GREEN_ENTER();
	gen = g->gen;
	if (++g->count == g->limit) {
		g->count = 0;
		g->gen++;
		while ((t = __gq_pop(&g->q))) __green_wake(t, 0);
		GREEN_LEAVE();
		return PTHREAD_BARRIER_SERIAL_THREAD;
	}
	while (g->gen == gen)   /* a signal handler may wake us early */
		__green_wait(&g->q, GW_BARRIER, g, GREEN_NO_DEADLINE);
	GREEN_LEAVE();
	return 0;
}
