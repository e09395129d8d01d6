/*
 * sem.c — unnamed semaphores (sem_open/sem_close/sem_unlink stay musl's
 * and build on these).
 *
 * A process-private semaphore hands a post directly to its first waiter
 * (the highest-priority one, FIFO among equals: queue.c).
 * A process-shared one (pshared != 0, and every named semaphore) lives in
 * memory other processes update: its value is changed with atomics, and
 * a waiter polls it with short green sleeps (the scheduler's retry wait,
 * sched/retry.c: 1, 2, then every 4 ms) because another process's
 * sem_post cannot wake a green thread here.  That is the stated limit:
 * a cross-process wake-up can lag by up to 4 ms (docs/sync.md).
 */
#include <semaphore.h>
#include <errno.h>
#include <limits.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "base/gconfig.h"

struct gsem {
	volatile int value;
	int shared;
	struct gq q;                  /* private semaphores only */
};
_Static_assert(sizeof(struct gsem) <= sizeof(sem_t), "gsem fits");

static struct gsem *G(sem_t *s) { return (struct gsem *)s; }

int sem_init(sem_t *s, int pshared, unsigned value)
{
	if (value > SEM_VALUE_MAX) {
		errno = EINVAL;
		return -1;
	}
	*s = (sem_t){ 0 };
	G(s)->value = value;
	G(s)->shared = !!pshared;
	return 0;
}

int sem_destroy(sem_t *s)
{
	if (!gq_empty(&G(s)->q)) {
		errno = EBUSY;
		return -1;
	}
	return 0;
}

static int take_shared(struct gsem *g)
{
	int v;
	while ((v = g->value) > 0)
		if (__sync_val_compare_and_swap(&g->value, v, v - 1) == v) return 1;
	return 0;
}

/* Polled (another process's sem_post cannot wake us): the retry wait,
 * which also catches a cancel that arrives between two polls. */
static int wait_shared(struct gsem *g, uint64_t deadline)
{
	unsigned step = 0;
	int r;
	while (!take_shared(g)) {
		if (__green_now() >= deadline) return ETIMEDOUT;
		r = __green_retry_wait(GW_SEM, g, &step, deadline, 1);
		if (r == EINTR || r == ECANCELED) return r;
	}
	return 0;
}

static int wait(sem_t *s, clockid_t clk, const struct timespec *at, int try)
{
	struct gsem *g = G(s);
	uint64_t deadline = GREEN_NO_DEADLINE;
	int r, err;

	if (!try) __green_cancel_point();
	if (g->shared) {
		if (take_shared(g)) return 0;
		r = EAGAIN;
		if (!try) {
			deadline = __green_deadline(clk, at, &err);
			r = err ? err : wait_shared(g, deadline);
		}
	} else {
		GREEN_ENTER();
		if (g->value > 0) {
			g->value--;
			GREEN_LEAVE();
			return 0;
		}
		r = EAGAIN;
		if (try) green_explore_spin();
		else {
			deadline = __green_deadline(clk, at, &err);
			if (err) r = err;
			else {
				r = GREEN_CP_WAIT(1, __green_wait(&g->q, GW_SEM, g, deadline));
				/* the deadline passed while a handler ran, say: no
				 * timeout if the semaphore can be taken now (POSIX) */
				if (r == ETIMEDOUT && g->value > 0) {
					g->value--;
					r = 0;
				}
			}
		}
		GREEN_LEAVE();
	}
	if (r == ECANCELED) __green_cancel_point();
	if (r) {
		errno = r;
		return -1;
	}
	return 0;
}

/* The fast path: a private semaphore with a positive value, and no
 * cancel pending (sem_wait is a cancellation point). */
int sem_wait(sem_t *s)
{
	struct gsem *g = G(s);

	if (!g->shared && !__green_cur->cancel_pending) {
		GREEN_ENTER();
		if (g->value > 0) {
			g->value--;
			GREEN_LEAVE();
			return 0;
		}
		GREEN_LEAVE();
	}
	return wait(s, CLOCK_REALTIME, 0, 0);
}
int sem_trywait(sem_t *s) { return wait(s, CLOCK_REALTIME, 0, 1); }
int sem_timedwait(sem_t *restrict s, const struct timespec *restrict at)
{
	return wait(s, CLOCK_REALTIME, at, 0);
}

int sem_clockwait(sem_t *restrict s, clockid_t clk, const struct timespec *restrict at)
{
	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC) {
		errno = EINVAL;
		return -1;
	}
	return wait(s, clk, at, 0);
}

static __attribute__((noinline)) int post(struct gsem *g)
{
	struct green_thread *t;
	int v;

	if (g->shared) {
		do {
			v = g->value;
			if (v == SEM_VALUE_MAX) {
				errno = EOVERFLOW;
				return -1;
			}
		} while (__sync_val_compare_and_swap(&g->value, v, v + 1) != v);
		return 0;
	}
	GREEN_ENTER();
	if ((t = __gq_pop(&g->q))) {
		__green_wake(t, 0);     /* handed over: the waiter does not decrement */
	} else if (g->value == SEM_VALUE_MAX) {
		GREEN_LEAVE();
		errno = EOVERFLOW;
		return -1;
	} else {
		g->value++;
	}
	GREEN_LEAVE();
	return 0;
}

/* The fast path: a private semaphore that nobody waits for. */
int sem_post(sem_t *s)
{
	struct gsem *g = G(s);

	if (!g->shared) {
		GREEN_ENTER();
		if (!g->q.head && g->value < SEM_VALUE_MAX) {
			g->value++;
			GREEN_LEAVE();
			return 0;
		}
		GREEN_LEAVE();
	}
	return post(g);
}

int sem_getvalue(sem_t *restrict s, int *restrict val)
{
	*val = G(s)->value;
	return 0;
}
