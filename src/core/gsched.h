/*
 * gsched.h — the scheduler: blocking, waking and yielding (sched.c),
 * wait queues (queue.c), the switch (switch.c), deadlines and the timer
 * heap (timer.c), and waits that are cancellation points (cancel.c).
 * The run queue is runq.h.
 */
#ifndef GREEN_GSCHED_H
#define GREEN_GSCHED_H
#include "gthread.h"

/* ---- scheduler (sched.c) */
hidden void __green_init(void);                 /* lazy, idempotent */
hidden int __green_block(void);                 /* current must already be queued/marked */
hidden void __green_yield(void);
/*
 * sched_yield's gate (sched.c): a byte for each reason a yield must take
 * its general path, read as one word, so that a yield with none of them
 * makes one test.  Each byte is written only where its fact changes:
 * GREEN_SCHED's mode is set once (explore.c); whether the kernel policy
 * is real-time (1), or not known yet (-1), is asked at the first yield
 * (sched.c) and kept by sched_setscheduler and fork (thread_np.c,
 * fork.c); whether deadlines are pending follows the timer heap's
 * length (timer.c).  One byte is not a
 * reason for the general path but a fact a busy yield relies on, set for
 * good the first time a thread's level is above 0 (green_relevel, runq.h):
 * while it is clear, every thread is at level 0.
 */
union green_yield_gate {
	signed char flag[4];
	uint32_t any;
};
extern hidden union green_yield_gate __green_yield_gate;
enum {
	GREEN_GATE_EXPLORE,                         /* GREEN_SCHED explores schedules */
	GREEN_GATE_KERNEL_RT,                       /* the kernel policy: real-time 1, other 0, -1 not known yet */
	GREEN_GATE_TIMERS,                          /* the timer heap holds a deadline */
	GREEN_GATE_LEVELS,                          /* some thread has been above level 0 */
};
#define __green_kernel_rt (__green_yield_gate.flag[GREEN_GATE_KERNEL_RT])
hidden void __green_ready(struct green_thread *, int front);   /* front: ahead of its level */
hidden void __green_wake(struct green_thread *, int why);
hidden void __green_wake_first(struct green_thread *, int why);   /* ahead of its level */
hidden _Noreturn void __green_exit_switch(void);
hidden int __green_wait(struct gq *, enum gwait, const void *obj, uint64_t deadline);
hidden int __green_wait_first(struct gq *, enum gwait, const void *obj, uint64_t deadline);
hidden void __green_unpreempted(void (*func)(void *), void *ctx);
hidden void __green_deadlock(void);
/* 1 while the scheduler waits in the kernel for want of a runnable
 * thread.  One owner and one writer: sched.c's idle(), around its call
 * of the idle wait; the tick reads it (a tick then only stops, as the
 * wait has every descriptor and the nearest deadline). */
extern hidden int __green_idling;

/* ---- queue helpers (queue.c; the common cases of push and pop in line,
 * as every wait and wake takes one: they are the most of a ping-pong) */
hidden void __gq_insert(struct gq *, struct green_thread *);
hidden void __gq_push_first(struct gq *, struct green_thread *);
hidden struct green_thread *__gq_pop_any(struct gq *);
hidden void __gq_remove(struct green_thread *);
static inline int gq_empty(const struct gq *q) { return !q->head; }

/* t joins q behind the waiters of its level and above: at the tail
 * unless the tail is below t's level (queue.c walks back then) */
static inline void __gq_push(struct gq *q, struct green_thread *t)
{
	struct green_thread *p = q->tail;

	if (p && p->level < t->level) {
		__gq_insert(q, t);
		return;
	}
	t->q = q;
	t->q_prev = p;
	t->q_next = 0;
	if (p) p->q_next = t;
	else q->head = t;
	q->tail = t;
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

#endif
