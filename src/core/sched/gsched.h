/*
 * gsched.h — the scheduler: blocking, waking and yielding (sched.c),
 * wait queues (queue.c), the switch (switch.c), deadlines and the timer
 * heap (timer.c), and waits that are cancellation points (cancel.c).
 * The run queue is runq.h.
 */
#ifndef GREEN_GSCHED_H
#define GREEN_GSCHED_H
#include "base/gthread.h"
#include "base/words.h"

/* ---- scheduler (sched.c) */
hidden void __green_init(void);                 /* lazy, idempotent */
hidden int __green_block(void);                 /* current must already be queued/marked */
hidden void __green_yield(void);
hidden void __green_preempt_yield(int how);     /* the tick preempts (tick.c's GREEN_PREEMPT_*) */
/* sched_yield's gate, __green_yield_gate, is a packed word (words.h) */
hidden void __green_ready(struct green_thread *, int front);   /* front: ahead of its level */
hidden void __green_wake(struct green_thread *, int why);
hidden void __green_wake_first(struct green_thread *, int why);   /* ahead of its level */
hidden void __green_wake_sleeper(struct green_thread *);   /* with 0, where threads that slept queue */
hidden _Noreturn void __green_exit_switch(void);
hidden int __green_wait(struct gq *, enum gwait, const void *obj, uint64_t deadline);
hidden int __green_wait_first(struct gq *, enum gwait, const void *obj, uint64_t deadline);
hidden int __green_park(struct gq *, enum gwait, const void *obj);   /* no deadline, the cancel looked at */
hidden void __green_unpreempted(void (*func)(void *), void *ctx);
/* 1 while the scheduler waits in the kernel for want of a runnable
 * thread.  One owner and one writer: sched.c's idle(), around its call
 * of the idle wait; the tick reads it (a tick then only stops, as the
 * wait has every descriptor and the nearest deadline). */
extern hidden int __green_idling;
/* The idle wait's timeout as the kernel takes it (two 64-bit words),
 * while a handler may cut it (poll.c; 0 otherwise): a handler that
 * records a signal for the scheduler cuts it to 0, so that the wait it
 * came before returns at once (sched.c's idle). */
extern hidden long long *volatile __green_idle_kts;
static inline void green_idle_cut(void)
{
	volatile long long *k = __green_idle_kts;
	if (k) {
		k[0] = 0;
		k[1] = 0;
	}
}

/* ---- queue helpers (queue.c; the common cases of push and pop in line,
 * as every wait and wake takes one: they are the most of a ping-pong) */
hidden void __gq_insert(struct gq *, struct green_thread *);
hidden void __gq_push_first(struct gq *, struct green_thread *);
hidden struct green_thread *__gq_pop_any(struct gq *);
hidden void __gq_remove(struct green_thread *);
static inline int gq_empty(const struct gq *q) { return !q->head; }

/* t, on a queue, out of it, its own links left as they were: for a
 * caller that sets them at once (it queues the thread elsewhere) */
static inline void gq_detach(struct green_thread *t)
{
	/* the links read once (a store through one may alias the other) */
	struct gq *q = t->q;
	struct green_thread *p = t->q_prev, *n = t->q_next;
	if (p) p->q_next = n;
	else q->head = n;
	if (n) n->q_prev = p;
	else q->tail = p;
}

/* t, on a queue, off it (__gq_remove is the out-of-line copy, which
 * also takes a thread on none) */
static inline void gq_unlink(struct green_thread *t)
{
	gq_detach(t);
	t->q = 0;
	t->q_next = t->q_prev = 0;
}

/* t at q's tail, whatever its level (a queue whose order is no one's
 * business: the kernel-wait queue, sched.c's __green_park) */
static inline void gq_append(struct gq *q, struct green_thread *t)
{
	struct green_thread *p = q->tail;

	t->q = q;
	t->q_prev = p;
	t->q_next = 0;
	if (p) p->q_next = t;
	else q->head = t;
	q->tail = t;
}

/* t joins q behind the waiters of its level and above: at the tail
 * unless the tail is below t's level (queue.c walks back then) */
static inline void __gq_push(struct gq *q, struct green_thread *t)
{
	struct green_thread *p = q->tail;

	if (p && p->level < t->level) __gq_insert(q, t);
	else gq_append(q, t);
}

/* q's head, which is there, out of q, its own links left as they were:
 * for a caller that sets them at once (it queues the thread elsewhere) */
static inline struct green_thread *gq_unlink_head(struct gq *q)
{
	struct green_thread *t = q->head;

	q->head = t->q_next;
	if (q->head) q->head->q_prev = 0;
	else q->tail = 0;
	return t;
}

/* q's head, which is there, off the queue */
static inline struct green_thread *gq_take_head(struct gq *q)
{
	struct green_thread *t = gq_unlink_head(q);

	t->q = 0;
	t->q_next = t->q_prev = 0;
	return t;
}

/* the first waiter, off the queue, or 0; a fork child's stale entries
 * are queue.c's to drop */
static inline struct green_thread *__gq_pop(struct gq *q)
{
	struct green_thread *t = q->head;

	if (!t) return 0;
	if (!t->magic) return __gq_pop_any(q);
	return gq_take_head(q);
}

/* ---- switch (switch.c) */
hidden void __green_switch(struct green_thread *from, struct green_thread *to);
hidden void __green_reap(void);
hidden void __green_reap_pending(void);   /* GREEN_PEND_REAP's work */
hidden void __green_reap_later(struct green_thread *);
hidden void __green_reap_reset(void);           /* in a fork child */

/* ---- time (timer.c) */
#define GREEN_NO_DEADLINE UINT64_MAX
hidden uint64_t __green_now(void);              /* the deadline clock: virtual under GREEN_SCHED */
hidden uint64_t __green_real_now(void);         /* CLOCK_MONOTONIC, always real */
hidden uint64_t __green_deadline(clockid_t, const struct timespec *abs, int *err);
hidden uint64_t __green_deadline_rel(const struct timespec *rel);
hidden int __green_sleep(uint64_t deadline, uint64_t *left);   /* 0 or EINTR */
hidden void __green_timer_add(struct green_thread *, uint64_t deadline);
hidden void __green_timer_del(struct green_thread *);
static inline int __green_timers_pending(void) { return __green_yield_gate.flag[GREEN_GATE_TIMERS]; }
hidden uint64_t __green_timer_next(void);
hidden void __green_timers_expire(uint64_t now, int front);
hidden void __green_timers_reset(void);         /* in a fork child */
hidden void __green_timers_check(void);         /* GREEN_DEBUG: the heap's order (check.h) */

/* ---- GREEN_DEBUG's invariants at a switch (invariants.c, check.h) */
hidden void __green_check_switch(struct green_thread *from, struct green_thread *to);

/* ---- cancellation points (cancel.c) */
hidden _Noreturn void __green_cancel_exit(void);   /* runs the handlers, exits */
/* acts on a pending cancel; the look in line, as every wait takes it */
static inline void __green_cancel_point(void)
{
	struct green_thread *self = __green_cur;
	if (self->cancel_pending && !self->cancel_disable) __green_cancel_exit();
}
/*
 * A wait that is a cancellation point: the thread is marked for its
 * length, so that pthread_cancel ends it with ECANCELED (cancel.c,
 * sched.c); the caller acts on that with __green_cancel_point once it
 * has left its no-preempt section.  With cp 0 it is an ordinary wait.
 * Every such wait in the library is written with this.
 */
#define GREEN_CP_WAIT(cp, wait) GREEN_CP_WAIT_AS(__green_cur, cp, wait)
/* the same, for a caller that has the running thread at hand */
#define GREEN_CP_WAIT_AS(self, cp, wait) __extension__ ({ \
	struct green_thread *cpw_self_ = (self); \
	int cpw_on_ = (cp), cpw_r_; \
	if (cpw_on_) cpw_self_->canceling = 1; \
	cpw_r_ = (wait); \
	if (cpw_on_) cpw_self_->canceling = 0; \
	cpw_r_; })
hidden void __green_cancel_async(struct green_thread *); /* after a switch: asynchronous cancel */
/* A wait that is a cancellation point, about to park, with a cancel
 * that would end it pending and enabled: it ends with ECANCELED at once
 * (pthread_cancel wakes only a thread that is already blocked). */
static inline int green_cancel_due(const struct green_thread *self)
{
	return self->canceling && self->cancel_pending && !self->cancel_disable;
}

/* ---- waits for what nothing announces (retry.c): look again after
 * 1, 2, then every 4 ms.  __green_retry_wait: the caller, inside no
 * critical section, sleeps to the next look, the deadline or a wake:
 * 0 (time to look again, or woken), ETIMEDOUT, EINTR, ECANCELED (cp 1:
 * a cancellation point).  __green_retry_at: the next look's time, for
 * a caller that parks on a queue of its own (pshared.c). */
#define GREEN_RETRY_MS 1, 2, 4
hidden int __green_retry_wait(enum gwait kind, const void *obj, unsigned *step, uint64_t deadline, int cp);
hidden uint64_t __green_retry_at(unsigned *step, uint64_t deadline);

#endif
