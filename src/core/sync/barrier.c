/*
 * barrier.c — barriers.  The thread that completes the count wakes the
 * others and is the one that gets PTHREAD_BARRIER_SERIAL_THREAD.
 *
 * A process-shared barrier (struct gpbarrier, marked in its limit word)
 * counts arrivals with atomic operations; the waiters of every process
 * park on the generation word (pshared.c) until the last arrival bumps
 * it.  The count is reset before the generation moves, so a thread that
 * has left can enter the next round at once.
 */
#include <errno.h>
#include <limits.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "sync/addrwait.h"

struct gbarrier {
	unsigned limit, count, gen;   /* gen counts completed rounds */
	struct gq q;
};
_Static_assert(sizeof(struct gbarrier) <= sizeof(pthread_barrier_t), "gbarrier fits");

#define B_SHARED 0x80000000u      /* in limit: the barrier is a gpbarrier */

struct gpbarrier {
	unsigned limit;               /* count | B_SHARED */
	volatile int count, gen, nwait;
};
_Static_assert(sizeof(struct gpbarrier) <= sizeof(pthread_barrier_t), "gpbarrier fits");

static int shared_wait(struct gpbarrier *p)
{
	unsigned step = 0;
	int gen = p->gen;

	if ((unsigned)__sync_add_and_fetch(&p->count, 1) == (p->limit & ~B_SHARED)) {
		__sync_lock_test_and_set(&p->count, 0);
		__sync_fetch_and_add(&p->gen, 1);
		__green_pshared_wake(&p->gen, INT_MAX, p->nwait > 0);
		return PTHREAD_BARRIER_SERIAL_THREAD;
	}
	__sync_fetch_and_add(&p->nwait, 1);
	while (p->gen == gen)
		__green_pshared_wait(&p->gen, gen, GREEN_NO_DEADLINE, GW_BARRIER, p, &step);
	__sync_fetch_and_sub(&p->nwait, 1);
	return 0;
}

int pthread_barrier_init(pthread_barrier_t *restrict b, const pthread_barrierattr_t *restrict a, unsigned n)
{
	struct gbarrier *g = (struct gbarrier *)b;
	if (!n) return EINVAL;
	*b = (pthread_barrier_t){ 0 };
	g->limit = n;
	if (a && green_barrierattr_shared(a)) {
		if (n & B_SHARED) return EINVAL;
		g->limit |= B_SHARED;
	}
	return 0;
}

int pthread_barrier_destroy(pthread_barrier_t *b)
{
	struct gbarrier *g = (struct gbarrier *)b;
	if (g->limit & B_SHARED) return ((struct gpbarrier *)b)->count ? EBUSY : 0;
	return g->count ? EBUSY : 0;
}

int pthread_barrier_wait(pthread_barrier_t *b)
{
	struct gbarrier *g = (struct gbarrier *)b;
	struct green_thread *t;
	unsigned gen;

	if (g->limit & B_SHARED) return shared_wait((struct gpbarrier *)b);
	GREEN_ENTER();
	gen = g->gen;
	if (++g->count == g->limit) {
		g->count = 0;
		g->gen++;
		while ((t = __gq_pop(&g->q))) __green_wake(t, 0);
		GREEN_LEAVE();
		return PTHREAD_BARRIER_SERIAL_THREAD;
	}
	/* Woken by the round's end (0), the thread leaves without another
	 * look at the barrier: the thread that ended the round may have
	 * returned, destroyed it and reused its memory (musl's mq_notify
	 * destroys a barrier on its stack as soon as its own wait returns).
	 * A signal's handler wakes it early (EINTR): the round has not
	 * ended then unless the generation says so. */
	while (g->gen == gen)
		if (!__green_wait(&g->q, GW_BARRIER, g, GREEN_NO_DEADLINE)) break;
	GREEN_LEAVE();
	return 0;
}
