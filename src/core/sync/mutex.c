/*
 * mutex.c — pthread mutexes.
 *
 * Layout inside pthread_mutex_t (all-zero is PTHREAD_MUTEX_INITIALIZER):
 * the attribute word musl's pthread_mutexattr_t carries (type in bits
 * 0-1, robust 4, priority inheritance 8, process-shared 128) stays at
 * musl's offset, so C11 mtx_init and the attribute code keep working.
 *
 * Unlock wakes the first waiter to compete for the mutex; it does not
 * hand the mutex over.  Waiters queue by priority, FIFO within a
 * priority (queue.c), and are woken in that order, one per unlock.  The
 * mutex is free from the unlock on, so the thread that unlocked it, or
 * any thread that runs before the woken one, may take it again: on one
 * CPU the woken thread runs only when the queue reaches it, and a
 * mutex handed to it would stay held, by nobody running, all that time
 * (a lock convoy: a server's acceptor that takes its queue's mutex once
 * per connection waited a whole run-queue cycle of busy workers for
 * each one, docs/servers.md).  Barging has its own risk, starvation: a
 * woken waiter that finds the mutex taken again goes back to the front
 * of its level of the queue, marked mx_handoff, and the next unlock
 * hands the mutex to it directly.  So a waiter loses at most one race
 * per wait, and the order among waiters stays priority, then FIFO.
 *
 *     state of waiter W            event                    next state
 *     queued                       unlock, W first          woken (mutex free)
 *     woken (mutex free)           W runs, mutex free       owner
 *     woken (mutex free)           W runs, mutex held       queued first, mx_handoff
 *     queued first, mx_handoff     unlock, W first          owner (handed over)
 *
 * Robust, priority-inheritance and priority-protect mutexes (GM_TRACKED)
 * keep the hand-off on every unlock: their owner is bookkept (the held
 * list, the boosts, owner-dead) and must never be a thread that has not
 * run to take it.
 *
 * Robust mutexes: each thread keeps the robust, priority-inheritance and
 * priority-protect mutexes it holds on a list (mheld, linked through gmutex.next).  When
 * it exits holding one, the mutex is marked owner-dead and handed to the
 * next waiter, whose lock returns EOWNERDEAD; unlocking it without
 * pthread_mutex_consistent makes it ENOTRECOVERABLE for good.
 *
 * Priority inheritance: a thread that blocks on a PTHREAD_PRIO_INHERIT
 * mutex lends its level to the owner (green_thread.boost), and along the
 * chain if that owner itself waits on such a mutex.  On unlock the owner's
 * boost is recomputed from the PI mutexes it still holds (the head of
 * each one's queue is its highest waiter).  On one CPU this is exact.
 *
 * Process-shared mutexes have a layout and code of their own (pmutex.c);
 * the entry points here pass them on.
 *
 * Priority protection: a PTHREAD_PRIO_PROTECT mutex carries a ceiling
 * (GM_CEIL_MASK bits of its type).  Taking it raises the owner's boost
 * to the ceiling; the recompute on unlock counts the ceilings of the
 * protect mutexes still held along with the PI loans, so the two
 * protocols nest in any order.  A caller whose own priority is above
 * the ceiling is refused with EINVAL.
 *
 * Refused with ENOTSUP at pthread_mutex_init, never silently ignored:
 * priority protection across processes (docs/posix.md); priority
 * inheritance across processes is pmutex.c's.
 */
#include <errno.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "base/gconfig.h"
#include "sched/runq.h"
#include "sync/sync.h"

_Static_assert(sizeof(struct gmutex) <= sizeof(pthread_mutex_t), "gmutex fits");

/* Initialising a robust, PI or protect mutex the caller still holds
 * (destroy said EBUSY): off the caller's list of held mutexes first,
 * which a zeroed link would cut and the next lock would make a cycle.
 * Only the list's links are compared: m may hold anything. */
static void held_forget(struct gmutex *g)
{
	struct gmutex **p = (struct gmutex **)&__green_cur->mheld;
	while (*p && *p != g) p = &(*p)->next;
	if (*p) *p = g->next;
}

int pthread_mutex_init(pthread_mutex_t *restrict m, const pthread_mutexattr_t *restrict a)
{
	struct gmutex *g = (struct gmutex *)m;
	unsigned type = a ? green_mutexattr_bits(a) : 0;

	if ((type & GM_PSHARED) && (type & GM_PROTECT)) return ENOTSUP;
	if (!(type & GM_PROTECT)) type &= ~GM_CEIL_MASK;
	held_forget(g);
	__green_pmutex_forget((struct gpmutex *)g);
	*m = (pthread_mutex_t){ 0 };
	g->type = type & (3 | GM_ROBUST | GM_PI | GM_PSHARED | GM_PROTECT | GM_CEIL_MASK);
	return 0;
}

int pthread_mutex_destroy(pthread_mutex_t *m)
{
	struct gmutex *g = (struct gmutex *)m;
	if (g->type & GM_PSHARED) return __green_pmutex_destroy((struct gpmutex *)g);
	if (gm_owner(g) || !gq_empty(&g->q)) return EBUSY;
	return 0;
}

/* ---- the owner's list of robust, PI and protect mutexes */

static void held_del(struct gmutex *g, struct green_thread *t)
{
	struct gmutex **p = (struct gmutex **)&t->mheld;
	while (*p && *p != g) p = &(*p)->next;
	if (*p) *p = g->next;
	g->next = 0;
}

/* Inside GREEN_ENTER: t (or nobody) owns g from now.  t is running, or
 * off every queue about to be woken: a raised boost needs no requeue. */
hidden void __green_mutex_own(struct gmutex *g, struct green_thread *t)
{
	gm_set_owner(g, t);
	if (t && (g->type & GM_TRACKED)) {
		g->next = t->mheld;
		t->mheld = g;
	}
	if (t && (g->type & GM_PROTECT) && gm_ceiling(g->type) > t->boost) {
		t->boost = gm_ceiling(g->type);
		green_relevel(t);
	}
}

/* ---- priority inheritance */

/* Inside GREEN_ENTER: waiter is about to queue on g; lend its level to
 * the owner and on along a chain of PI mutexes. */
hidden void __green_pi_boost(struct gmutex *g, struct green_thread *waiter)
{
	int l = green_level(waiter);
	struct green_thread *o = gm_owner(g);

	while ((g->type & GM_PI) && o && green_level(o) < l) {
		o->boost = l;
		green_relevel(o);
		__green_runq_requeue(o, 0);
		if (o->state != GS_BLOCKED || o->wait != GW_MUTEX) break;
		g = (struct gmutex *)o->wait_obj;
		o = gm_owner(g);
	}
}

/* Inside GREEN_ENTER: t released a PI or protect mutex (or a ceiling
 * changed); its boost is the highest waiter of the PI mutexes and the
 * highest ceiling of the protect mutexes it still holds. */
hidden void __green_mutex_reboost(struct green_thread *t)
{
	struct gmutex *g;
	int b = 0, l;

	for (g = t->mheld; g; g = g->next) {
		if ((g->type & GM_PI) && g->q.head && (l = green_level(g->q.head)) > b)
			b = l;
		if ((g->type & GM_PROTECT) && (l = gm_ceiling(g->type)) > b)
			b = l;
	}
	if (b == t->boost) return;
	t->boost = b;
	green_relevel(t);
	__green_runq_requeue(t, 0);
	if (t == __green_cur && __green_runq_higher(t))
		green_pending_set(GREEN_PEND_YIELD);   /* the outermost GREEN_LEAVE yields */
}

/* ---- acquire and release */

static int state(struct gmutex *g)
{
	return g->type & GM_OWNERDEAD ? EOWNERDEAD : 0;
}

/* Inside GREEN_ENTER: take a free mutex or queue for it.  Returns 0 or
 * EOWNERDEAD when the caller owns it, or the error of the wait
 * (ETIMEDOUT, ENOTRECOVERABLE).  woken: the caller was just woken to
 * compete for g (by an unlock, or by a condition's signal), so if g is
 * held again it waits first in line, for a hand-off.
 *
 * A signal handler run while the caller waits takes it off the queue
 * (deliver.c); the mutex may have been unlocked meanwhile with nobody to
 * hand it to, so every pass looks again before it queues.  A deadline
 * that passed while the handler ran is no failure if the mutex is free
 * (POSIX: a timed lock that can be taken at once never times out). */
hidden int __green_mutex_acquire(struct gmutex *g, uint64_t deadline, int woken)
{
	struct green_thread *self = __green_cur;
	int r;

	for (;;) {
		if (g->type & GM_NOTRECOVERABLE) {
			r = ENOTRECOVERABLE;
			break;
		}
		if (!gm_owner(g)) {
			__green_mutex_own(g, self);
			r = state(g);
			break;
		}
		if (g->type & GM_PI) __green_pi_boost(g, self);
		self->mx_handoff = woken;
		gm_queued(g);
		r = woken ? __green_wait_first(&g->q, GW_MUTEX, g, deadline)
		          : __green_wait(&g->q, GW_MUTEX, g, deadline);
		self->mx_handoff = 0;
		if (!r && gm_owner(g) == self) {
			r = state(g);
			break;
		}
		if (r && r != EINTR && (r != ETIMEDOUT || gm_owner(g))) break;
		/* woken to compete (r == 0), a signal, or a timeout on a
		 * free mutex */
		woken = !r;
	}
	return r;
}

/* Inside GREEN_ENTER: wake the first waiter to compete for the mutex,
 * now free, or hand it over (see the top); free it if nobody waits. */
hidden void __green_mutex_release(struct gmutex *g)
{
	struct green_thread *o = gm_owner(g), *t;

	if (o && (g->type & GM_TRACKED)) held_del(g, o);
	t = __gq_pop(&g->q);
	if (t && !t->mx_handoff && !(g->type & GM_TRACKED)) {
		gm_set_owner(g, 0);
		green_wake(t, 0, 0);   /* in line: the unlock that wakes a waiter */
	} else {
		__green_mutex_own(g, t);
		if (t) __green_wake(t, 0);
	}
	if (o && (g->type & (GM_PI | GM_PROTECT))) __green_mutex_reboost(o);
}

/* Inside GREEN_ENTER: a robust mutex unlocked while inconsistent can
 * never be locked again; its waiters learn it now. */
static void unrecoverable(struct gmutex *g)
{
	struct green_thread *o = gm_owner(g), *t;

	held_del(g, o);
	g->type = (g->type & ~GM_OWNERDEAD) | GM_NOTRECOVERABLE;
	while ((t = __gq_pop(&g->q))) __green_wake(t, ENOTRECOVERABLE);
	gm_set_owner(g, 0);
	if (g->type & (GM_PI | GM_PROTECT)) __green_mutex_reboost(o);
}

/* A thread exits: every robust mutex it holds passes to its next waiter
 * marked owner-dead.  Others (PI without robust) stay locked, as POSIX
 * says a non-robust mutex of a dead owner does. */
hidden void __green_mutex_owner_died(struct green_thread *t)
{
	struct gmutex *g;

	GREEN_ENTER();
	while ((g = t->mheld)) {
		if (g->type & GM_ROBUST) {
			g->type |= GM_OWNERDEAD;
			g->count = 0;
			__green_mutex_release(g);
		} else {
			held_del(g, t);
		}
	}
	t->boost = 0;
	green_relevel(t);
	GREEN_LEAVE();
}

/* POSIX: a caller whose priority is above a protect mutex's ceiling
 * may not lock it (its own priority; a boost it holds does not count) */
static int above_ceiling(struct gmutex *g, struct green_thread *t)
{
	int p = t->policy == SCHED_FIFO || t->policy == SCHED_RR ? t->prio : 0;
	return p > gm_ceiling(g->type);
}

static int lock(struct gmutex *g, clockid_t clk, const struct timespec *at, int try)
{
	struct green_thread *self = __green_cur;
	uint64_t deadline = GREEN_NO_DEADLINE;
	int r, err;

	if (g->type & GM_PSHARED) return __green_pmutex_lock((struct gpmutex *)g, clk, at, try);
	if ((g->type & GM_PROTECT) && above_ceiling(g, self)) return EINVAL;
	GREEN_ENTER();
	if (!gm_owner(g) || (g->type & GM_NOTRECOVERABLE)) {
		r = __green_mutex_acquire(g, GREEN_NO_DEADLINE, 0);   /* does not wait */
		GREEN_LEAVE();
		return r;
	}
	if (gm_owner(g) == self && !(try && (g->type & 3) != PTHREAD_MUTEX_RECURSIVE)) {
		switch (g->type & 3) {
		case PTHREAD_MUTEX_RECURSIVE:
			r = g->count == INT_MAX ? EAGAIN : (g->count++, 0);
			GREEN_LEAVE();
			return r;
		case PTHREAD_MUTEX_ERRORCHECK:
			GREEN_LEAVE();
			return EDEADLK;
		default:
			/* NORMAL relocks deadlock as POSIX says; the deadlock
			 * report names it if nothing else can run. */
			break;
		}
	}
	if (try) {
		green_explore_spin();
		GREEN_LEAVE();
		return EBUSY;
	}
	if (at) {
		deadline = __green_deadline(clk, at, &err);
		if (err) {
			GREEN_LEAVE();
			return err;
		}
	}
	r = __green_mutex_acquire(g, deadline, 0);
	GREEN_LEAVE();
	return r;
}

/*
 * The fast paths: a plain mutex (type 0: normal, private, no protocol,
 * not owner-dead) is taken when free and nobody waits, and given back
 * when nobody waits, by one compare-and-swap of its lock word (sync.h);
 * anything else goes the whole way.  Under GREEN_SCHED a lock and an
 * unlock are scheduling points, which only the whole way offers.
 */
static inline int fast_take(struct gmutex *g)
{
	return green_zero_unexplored(g->type) && __green_arch_cas(&g->lockw, 0, (uintptr_t)__green_cur);
}

int __pthread_mutex_lock(pthread_mutex_t *m)
{
	struct gmutex *g = (struct gmutex *)m;
	if (fast_take(g)) return 0;
	return lock(g, CLOCK_REALTIME, 0, 0);
}

int __pthread_mutex_trylock(pthread_mutex_t *m)
{
	struct gmutex *g = (struct gmutex *)m;
	if (fast_take(g)) return 0;
	return lock(g, CLOCK_REALTIME, 0, 1);
}

int __pthread_mutex_timedlock(pthread_mutex_t *restrict m, const struct timespec *restrict at)
{
	return lock((struct gmutex *)m, CLOCK_REALTIME, at, 0);
}

static __attribute__((noinline)) int unlock(struct gmutex *g)
{
	struct green_thread *self = __green_cur;

	if (g->type & GM_PSHARED) return __green_pmutex_unlock((struct gpmutex *)g);
	GREEN_ENTER();
	if (gm_owner(g) != self) {
		/* ERRORCHECK, RECURSIVE and robust must refuse; so do we for
		 * a NORMAL mutex nobody holds.  A NORMAL mutex held by another thread
		 * is released, as glibc and musl do (undefined in POSIX). */
		if ((g->type & (3 | GM_ROBUST)) != PTHREAD_MUTEX_NORMAL || !gm_owner(g)) {
			GREEN_LEAVE();
			return EPERM;
		}
	}
	if (g->count) {
		g->count--;
		GREEN_LEAVE();
		return 0;
	}
	if (g->type & GM_OWNERDEAD) unrecoverable(g);
	else __green_mutex_release(g);
	GREEN_LEAVE();
	return 0;
}

int __pthread_mutex_unlock(pthread_mutex_t *m)
{
	struct gmutex *g = (struct gmutex *)m;

	if (green_zero_unexplored(g->type) && __green_arch_cas(&g->lockw, (uintptr_t)__green_cur, 0))
		return 0;
	return unlock(g);
}

weak_alias(__pthread_mutex_lock, pthread_mutex_lock);
weak_alias(__pthread_mutex_trylock, pthread_mutex_trylock);
weak_alias(__pthread_mutex_timedlock, pthread_mutex_timedlock);
weak_alias(__pthread_mutex_unlock, pthread_mutex_unlock);

int pthread_mutex_clocklock(pthread_mutex_t *restrict m, clockid_t clk,
                            const struct timespec *restrict at)
{
	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC) return EINVAL;
	return lock((struct gmutex *)m, clk, at, 0);
}

int pthread_mutex_consistent(pthread_mutex_t *m)
{
	struct gmutex *g = (struct gmutex *)m;
	int r = EINVAL;

	if (g->type & GM_PSHARED) return __green_pmutex_consistent((struct gpmutex *)g);
	GREEN_ENTER();
	if ((g->type & GM_ROBUST) && (g->type & GM_OWNERDEAD) && gm_owner(g) == __green_cur) {
		g->type &= ~GM_OWNERDEAD;
		r = 0;
	}
	GREEN_LEAVE();
	return r;
}
