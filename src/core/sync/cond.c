/*
 * cond.c — condition variables.
 *
 * Wait morphing: a signal does not wake a waiter only for it to block
 * again on the mutex.  If the waiter's mutex is held (the usual case:
 * signalling inside the critical section) the waiter is moved, still
 * blocked, from the condition's queue to the tail of the mutex's queue,
 * and an unlock wakes it from there as it wakes any mutex waiter.  If
 * the mutex is free, the waiter is made runnable and takes the mutex
 * when it runs.  Either way it competes for the mutex as a woken mutex
 * waiter does: if another thread holds it by then, it waits first in
 * line and the next unlock hands it over (mutex.c).  Robust, PI and
 * protect mutexes are handed over at once, as their unlocks do.
 *
 * One held case is made runnable too: the signaller itself holds a
 * plain mutex that nobody waits for, and wakes one waiter of no higher
 * level than its own (run_past_holder).  On one CPU the waiter runs
 * only once the signaller blocks, yields or is preempted, and a
 * signaller almost always unlocks first: the waiter finds the mutex
 * free, as it would have been woken by that unlock, and the unlock has
 * nobody to wake (the fast path, no section) where it would have taken
 * the waiter off the mutex's queue.  A ping-pong's round is a signal
 * that makes the other thread runnable and a wait that releases the
 * mutex in line and switches to it.  If the signaller still holds the
 * mutex when the waiter runs, the waiter waits first in line, as above.
 *
 *   cond queue ──signal──> mutex free, or held by the signaller
 *                          (plain, no waiters, one waiter, no higher):
 *                                       RUNNABLE, takes it when it runs
 *                          held otherwise: mutex queue (BLOCKED, GW_MUTEX)
 *   mutex queue ──unlock──> RUNNABLE, takes it when it runs
 *   deadline / cancel ──> RUNNABLE without the mutex: re-acquire it first
 *
 * A process-shared condition, or a wait with a process-shared mutex,
 * cannot queue threads of several processes on one green queue.  The
 * waiter of a shared condition joins the waiter board instead (board.c)
 * before it releases the mutex, and parks on its slot; a signal wakes
 * the best slot (the highest priority, FIFO among equals, in every
 * process), a broadcast every one.  The woken waiter then locks the
 * mutex as any thread would.  The sequence word seq is bumped by a
 * signal that leaves no slot waiting (a broadcast, the last waiter's
 * signal, or one that found nobody on the board): it releases the
 * waiters without a slot (no board, or a private condition used with a
 * shared mutex), which park while it is unchanged (pshared.c), and
 * every slot waiter that sees it move (a spurious wake-up, which POSIX
 * permits).
 *
 * Destroying a shared condition.  POSIX lets a thread destroy a
 * condition as soon as no thread is blocked on it, which includes right
 * after a broadcast, before the woken waiters have run; the memory may
 * then be reused at once.  Those waiters still count in nwait until they
 * leave, and must not touch the object afterwards.  Every seq bump
 * releases every waiter registered before it (each one leaves once it
 * sees seq move), so the waiters still blocked are those that registered
 * under the current seq.  A waiter registers (nwait++, wseq = its seq)
 * before it releases the mutex, so registrations are ordered by the
 * mutex and wseq is the seq of the latest:
 *
 *   nwait == 0                  nobody inside: 0
 *   wseq == seq                 a waiter of the current seq still waits: EBUSY
 *   otherwise                   all were released: wait until nwait is 0
 *                               (they wake it: the last to leave), then 0
 *
 * After its nwait-- a waiter reads nothing of the condition.  One case
 * errs towards EBUSY: a waiter of the current seq that timed out (or was
 * cancelled) while released ones of an older seq have not left yet.
 */
#include <errno.h>
#include <limits.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "sync/addrwait.h"
#include "base/words.h"
#include "sched/runq.h"
#include "sync/sync.h"
#include "sync/board.h"

_Static_assert(sizeof(struct gcond) <= sizeof(pthread_cond_t), "gcond fits");

int pthread_cond_init(pthread_cond_t *restrict c, const pthread_condattr_t *restrict a)
{
	struct gcond *g = (struct gcond *)c;
	*c = (pthread_cond_t){ 0 };
	if (a) g->shared = green_condattr_read(a, &g->clock);
	return 0;
}

int pthread_cond_destroy(pthread_cond_t *c)
{
	struct gcond *g = (struct gcond *)c;
	unsigned step = 0;
	int n;

	if (!gq_empty(&g->q)) return EBUSY;
	while ((n = g->nwait)) {
		if (g->wseq == g->seq) return EBUSY;
		/* only released waiters are left (see the top) */
		__green_pshared_wait(&g->nwait, n, GREEN_NO_DEADLINE, GW_COND, g, &step);
	}
	return 0;
}

/* Bump the sequence and wake n shared waiters (the caller saw some).
 * Out of line, as shared_wait: the shared paths need real atomics, the
 * private ones none (tests/tools/nolock.sh). */
static __attribute__((noinline)) void shared_signal(struct gcond *c, int n)
{
	int k = c->shared ? __green_board_wake(&c->id, n, 0, 0) : 0, prio;

	if (k == n && __green_board_best(&c->id, 0, 0, &prio) >= 0) return;   /* others still wait */
	__sync_fetch_and_add(&c->seq, 1);
	if (k < n) __green_pshared_wake(&c->seq, n - k, c->nwait > 0);
}

/* May a signal make its waiter t runnable at once, though the
 * signaller holds t's mutex m (see the top)?  Only a signal's one
 * waiter, not a broadcast's (they stay one wake-up per unlock), at a
 * level no higher than the signaller's (one above it would preempt it
 * while it still holds m), with a plain mutex (no owner to book) that
 * nobody waits for (no order to keep among waiters: m's lock word is
 * the signaller exactly, as every waiter sets GM_WAITERS, sync.h), and
 * not under GREEN_SCHED (a scheduling point follows the signal: the
 * waiter would run into the mutex held). */
static inline int run_past_holder(struct green_thread *self, struct green_thread *t,
                                  struct gmutex *m, int last)
{
	return last && m->lockw == (uintptr_t)self && !(m->type & ~3)
	       && green_level(t) <= green_level(self) && !__green_xmode;
}

/* Inside GREEN_ENTER: t, just taken off a private condition's queue,
 * is signalled; last: the last waiter this signal or broadcast wakes. */
static inline __attribute__((always_inline)) void signal_waiter(struct green_thread *self,
                                                                 struct green_thread *t, int last)
{
	struct gmutex *m = t->wait_aux;
	struct green_thread *o = gm_owner(m);

	if (t->heap_idx) __green_timer_del(t);
	if (o && !run_past_holder(self, t, m, last)) {
		t->wait = GW_MUTEX;
		t->wait_obj = m;
		if (m->type & GM_PI) __green_pi_boost(m, t);
		gm_queued(m);
		__gq_push(&m->q, t);
		return;
	}
	/* runnable; the wait re-acquires: it competes for the mutex as a
	 * waiter woken by an unlock does (mutex.c), or learns
	 * ENOTRECOVERABLE.  A free robust, PI or protect mutex is handed
	 * over. */
	if (!o && (m->type & GM_TRACKED) && !(m->type & GM_NOTRECOVERABLE))
		__green_mutex_own(m, t);
	green_wake_off(t, 0, 0);
}

hidden int __green_cond_signal(struct gcond *c, int n)
{
	struct green_thread *self = __green_cur, *t;

	if (c->nwait && (c->shared || gq_empty(&c->q))) {
		shared_signal(c, n < 0 ? INT_MAX : n);
		if (c->shared) return 0;
	}
	GREEN_ENTER();
	while (n-- && (t = __gq_pop(&c->q))) signal_waiter(self, t, !n);
	GREEN_LEAVE();
	return 0;
}

/* signal_queued's cases other than its own: inside the section it
 * entered, which this ends; t is out of the queue, its links not yet
 * cleared */
static __attribute__((noinline)) int signal_queued_rest(struct green_thread *t)
{
	t->q = 0;
	t->q_next = t->q_prev = 0;
	signal_waiter(__green_cur, t, 1);
	GREEN_LEAVE();
	return 0;
}

/* pthread_cond_signal with a private waiter queued (so c is not
 * shared; shared waiters it may also have come after the queue's).
 * Its own case, the usual one, takes no call: the waiter, with no
 * deadline, made runnable past its mutex's holder, the signaller; the
 * rest out of line.  Not vectorized: the run queue's head and tail are
 * two plain stores (peer.c's wake says why). */
static __attribute__((noinline, optimize("no-tree-slp-vectorize"))) int signal_queued(struct gcond *c)
{
	struct green_thread *self = __green_cur, *t;

	GREEN_ENTER();
	t = c->q.head;
	if (__builtin_expect(!t || !t->magic, 0)) {
		/* gone since the look, or a fork child's stale entries */
		GREEN_LEAVE();
		return __green_cond_signal(c, 1);
	}
	gq_unlink_head(&c->q);
	if (t->heap_idx || !run_past_holder(self, t, t->wait_aux, 1))
		return signal_queued_rest(t);
	green_wake_off(t, 0, 0);
	GREEN_LEAVE();
	return 0;
}

/* The wait on the sequence word, with any kind of mutex (see the top). */
static __attribute__((noinline)) int shared_wait(struct gcond *c, struct gmutex *m, clockid_t clk,
                       const struct timespec *at)
{
	struct green_thread *self = __green_cur;
	uint64_t deadline = GREEN_NO_DEADLINE;
	struct gslot *s;
	unsigned step = 0;
	int r, err, seq, count, got;

	if (m->type & GM_PSHARED ? !__green_pmutex_owned((struct gpmutex *)m) : gm_owner(m) != self)
		return EPERM;
	if (at) {
		deadline = __green_deadline(clk, at, &err);
		if (err) return err;
	}
	__green_cancel_point();

	s = c->shared ? __green_board_join(&c->id, 0) : 0;
	seq = c->seq;
	__sync_fetch_and_add(&c->nwait, 1);
	c->wseq = seq;             /* under the mutex: see the top */
	count = m->count;          /* at the same offset in both layouts */
	m->count = 0;
	__pthread_mutex_unlock((pthread_mutex_t *)m);
	if (s) {
		do r = GREEN_CP_WAIT(1, __green_board_park(s, deadline, GW_COND, c, &step));
		while (!r && !__green_board_woken(s) && c->seq == seq);
		/* signalled as it gave up: a timeout was a wake-up; a cancel
		 * passes the signal on (POSIX: it consumes none) */
		if (__green_board_leave(s) && r) {
			if (r == ECANCELED) shared_signal(c, 1);
			else r = 0;
		}
	} else {
		do r = GREEN_CP_WAIT(1, __green_pshared_wait(&c->seq, seq, deadline, GW_COND, c, &step));
		while (!r && c->seq == seq);
	}
	/* the last to leave wakes a destroyer of this process; one elsewhere
	 * sees the count at its next re-check */
	if (!__sync_sub_and_fetch(&c->nwait, 1)) __green_pshared_wake(&c->nwait, INT_MAX, 0);
	got = __pthread_mutex_lock((pthread_mutex_t *)m);
	if (got != ENOTRECOVERABLE) m->count = count;

	if (r == ECANCELED) __green_cancel_point();  /* handlers run with the mutex held */
	if (got) return got;    /* robust: EOWNERDEAD (held) or ENOTRECOVERABLE */
	return r == ETIMEDOUT ? ETIMEDOUT : 0;
}

/* A private wait's result r once the caller holds the mutex again
 * (got: 0, or the robust mutex's EOWNERDEAD or ENOTRECOVERABLE),
 * outside the section: a cancel is acted on with the mutex held. */
static int wait_result(int r, int got)
{
	if (r == ECANCELED) __green_cancel_point();  /* handlers run with the mutex held */
	if (got) return got;
	return r == ETIMEDOUT ? ETIMEDOUT : 0;
}

/* The end of a private wait whose mutex is not plain or not free:
 * inside the wait's section, which this ends. */
static __attribute__((noinline)) int wait_end(struct gmutex *m, int r, int count)
{
	int got;

	if (gm_owner(m) == __green_cur)   /* handed over (robust, PI, protect) */
		got = m->type & GM_OWNERDEAD ? EOWNERDEAD : 0;
	else
		got = __green_mutex_acquire(m, GREEN_NO_DEADLINE, !r);
	if (got != ENOTRECOVERABLE) m->count = count;
	GREEN_LEAVE();
	return wait_result(r, got);
}

/* Inside GREEN_ENTER, m released: wait on c until signalled (or the
 * deadline, a signal handler, a cancel), a cancellation point. */
static inline __attribute__((always_inline)) int cond_block(struct green_thread *self,
                                                             struct gcond *c, struct gmutex *m,
                                                             uint64_t deadline)
{
	int r;

	self->wait_aux = m;
	r = GREEN_CP_WAIT_AS(self, 1, __green_wait(&c->q, GW_COND, c, deadline));
	self->wait_aux = 0;
	return r;
}

/* The same, m released the whole way first (it has waiters, or a
 * protocol); out of line, so that the in-line wait keeps nothing of c
 * across a call. */
static __attribute__((noinline)) int release_block(struct gcond *c, struct gmutex *m,
                                                   uint64_t deadline)
{
	__green_mutex_release(m);
	return cond_block(__green_cur, c, m, deadline);
}

/* The private wait.  pthread_cond_wait has it in line for a NORMAL or
 * ERRORCHECK mutex (norec: no protocol, no recursive count to keep, no
 * deadline); the rest is __green_cond_wait. */
static inline __attribute__((always_inline)) int cond_wait(struct gcond *c, struct gmutex *m,
                                                            clockid_t clk, const struct timespec *at,
                                                            int norec)
{
	struct green_thread *self = __green_cur;
	uint64_t deadline = GREEN_NO_DEADLINE;
	uintptr_t w;
	int r, err, count = 0;

	if (norec && (c->shared || (m->type & ~PTHREAD_MUTEX_ERRORCHECK)))
		return __green_cond_wait(c, m, clk, at);
	if (c->shared || (m->type & GM_PSHARED)) return shared_wait(c, m, clk, at);
	if (gm_owner(m) != self) return EPERM;
	if (at) {
		deadline = __green_deadline(clk, at, &err);
		if (err) return err;
	}
	__green_cancel_point();

	GREEN_ENTER();
	if (!norec) {
		count = m->count;
		m->count = 0;
	}
	if ((norec || !(m->type & ~3)) && gq_empty(&m->q)) {
		m->lockw = 0;   /* plain, nobody waits: as the release would */
		r = cond_block(self, c, m, deadline);
	} else {
		r = release_block(c, m, deadline);
	}
	w = m->lockw;
	if (__builtin_expect((!norec && (m->type & ~3)) || w > GM_WAITERS, 0))
		return wait_end(m, r, count);
	/* free, and of no protocol: taken as acquire would (the waiters'
	 * bit kept) */
	m->lockw = w | (uintptr_t)self;
	if (!norec) m->count = count;
	GREEN_LEAVE();
	if (__builtin_expect(!r, 1)) return 0;
	return wait_result(r, 0);
}

hidden int __green_cond_wait(struct gcond *c, struct gmutex *m, clockid_t clk,
                             const struct timespec *at)
{
	return cond_wait(c, m, clk, at, 0);
}

int __pthread_cond_timedwait(pthread_cond_t *restrict c, pthread_mutex_t *restrict m,
                             const struct timespec *restrict at)
{
	/* musl's cnd_wait passes a null deadline: wait untimed */
	return __green_cond_wait((struct gcond *)c, (struct gmutex *)m, ((struct gcond *)c)->clock, at);
}
weak_alias(__pthread_cond_timedwait, pthread_cond_timedwait);

int pthread_cond_wait(pthread_cond_t *restrict c, pthread_mutex_t *restrict m)
{
	return cond_wait((struct gcond *)c, (struct gmutex *)m, CLOCK_REALTIME, 0, 1);
}

int pthread_cond_clockwait(pthread_cond_t *restrict c, pthread_mutex_t *restrict m,
                           clockid_t clk, const struct timespec *restrict at)
{
	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC) return EINVAL;
	return __green_cond_wait((struct gcond *)c, (struct gmutex *)m, clk, at);
}

/* Nobody waits: nothing to do, so no section (a waiter that queues after
 * this look began its wait after the signal: it checked its predicate
 * under the mutex), and no scheduling point but under GREEN_SCHED. */
static inline int nobody_waits(const struct gcond *c)
{
	return !c->q.head && green_zero_unexplored(c->nwait);
}

int pthread_cond_signal(pthread_cond_t *c)
{
	struct gcond *g = (struct gcond *)c;

	if (g->q.head) return signal_queued(g);
	if (nobody_waits(g)) return 0;
	return __green_cond_signal(g, 1);
}

int pthread_cond_broadcast(pthread_cond_t *c)
{
	if (nobody_waits((struct gcond *)c)) return 0;
	return __green_cond_signal((struct gcond *)c, -1);
}

/* C11 cnd_signal/cnd_broadcast call this musl-internal name. */
hidden int __private_cond_signal(pthread_cond_t *c, int n)
{
	return __green_cond_signal((struct gcond *)c, n);
}
