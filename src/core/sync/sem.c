/*
 * sem.c — unnamed semaphores (sem_open/sem_close/sem_unlink stay musl's
 * and build on these).
 *
 * A process-private semaphore hands a post directly to its first waiter
 * (the highest-priority one, FIFO among equals: queue.c).
 *
 * A process-shared one (pshared != 0, and every named semaphore) lives in
 * memory other processes update: its value is changed with atomics, and
 * its waiters are on the waiter board (board.c), where a post finds the
 * best of them in every process.  As glibc's, a post does not hand its
 * unit over: a thread that comes to sem_wait at that moment may take
 * it first (on one CPU, the process the kernel runs first), and the
 * woken waiter then waits again in its old place.
 *
 *   sem_post:  value++; if nwait, wake the best waiter on the board;
 *              nobody there: wake the value word, for a waiter without
 *              a slot (no board).
 *   sem_wait:  nwait++, join the board, then take from the value (a post
 *              between the two is seen either here or by the poster's
 *              look at the board), if it leaves a unit for every better
 *              waiter on the board, woken or not; else park on the slot,
 *              re-checking at 1, 2, then every 4 ms.
 *
 * A waiter that leaves woken without the unit (timeout, signal, cancel)
 * passes the wake on; one woken in a process that died leaves its slot
 * WOKEN until a re-check finds the process gone (board.c), and the
 * value it did not take goes to the next.
 */
#include <semaphore.h>
#include <errno.h>
#include <limits.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "base/gconfig.h"
#include "sync/addrwait.h"
#include "sync/board.h"

struct gsem {
	volatile int value;
	int shared;
	struct gq q;                  /* private semaphores only */
};
_Static_assert(sizeof(struct gsem) <= sizeof(sem_t), "gsem fits");

/* a shared one: in place of the queue, the board's id and a count of
 * the waiters in every process (16 bytes on a 32-bit CPU) */
struct gpsem {
	volatile int value;
	int shared;
	volatile int id, nwait;
};
_Static_assert(sizeof(struct gpsem) <= sizeof(sem_t), "gpsem fits");

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
	if (!G(s)->shared && !gq_empty(&G(s)->q)) {
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

/* Parked on a slot of the board, or on the value word without one. */
static int park_shared(struct gpsem *p, struct gslot *s, uint64_t deadline, unsigned *step)
{
	if (s) return GREEN_CP_WAIT(1, __green_board_park(s, deadline, GW_SEM, p, step));
	return GREEN_CP_WAIT(1, __green_pshared_wait(&p->value, 0, deadline, GW_SEM, p, step));
}

/* May this waiter take from the value now?  Without a slot, always;
 * with one, when the value leaves a unit for every better waiter on
 * the board, woken or not. */
static int may_take(struct gsem *g, struct gslot *s)
{
	return !s || __green_board_turn(s, g->value, 0, 0);
}

static int wait_shared(struct gsem *g, uint64_t deadline)
{
	struct gpsem *p = (struct gpsem *)g;
	struct gslot *s;
	unsigned step = 0;
	int r = 0, got = 0;

	__sync_fetch_and_add(&p->nwait, 1);
	s = __green_board_join(&p->id, 0);
	for (;;) {
		if (may_take(g, s) && take_shared(g)) got = 1;
		if (got || r) break;
		if (s && __green_board_woken(s)) __green_board_rejoin(s);   /* taken first: wait again */
		if (__green_now() >= deadline) r = ETIMEDOUT;
		else r = park_shared(p, s, deadline, &step);   /* an error: one last look */
	}
	/* woken, but leaving without the unit: the next one may take it */
	if (s && __green_board_leave(s) && !got) __green_board_wake(&p->id, 1, 0, 0);
	__sync_fetch_and_sub(&p->nwait, 1);
	return got ? 0 : r;
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

/* value++, then wake the best waiter on the board. */
static int post_shared(struct gsem *g)
{
	struct gpsem *p = (struct gpsem *)g;
	int v;

	do {
		v = g->value;
		if (v == SEM_VALUE_MAX) {
			errno = EOVERFLOW;
			return -1;
		}
	} while (__sync_val_compare_and_swap(&g->value, v, v + 1) != v);
	if (p->nwait && !__green_board_wake(&p->id, 1, 0, 0))
		__green_pshared_wake(&g->value, 1, 1);   /* nobody on the board */
	return 0;
}

static __attribute__((noinline)) int post(struct gsem *g)
{
	struct green_thread *t;

	if (g->shared) return post_shared(g);
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
