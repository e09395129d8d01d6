/*
 * runq.h — the run queue: RUNNABLE threads by priority.
 *
 * One FIFO per priority level (0 for SCHED_OTHER, 1..99 for SCHED_FIFO
 * and SCHED_RR, as Linux numbers them) and a bitmap of the non-empty
 * levels: the highest non-empty level runs first, FIFO within a level
 * (Marovich's real-time policy).  A thread's level is its own priority
 * raised by any priority-inheritance boost (mutex.c).  Inline because
 * every yield pushes and pops it.
 *
 * A bit may be left set for a level a thread was taken off directly
 * (__gq_remove, a requeue); readers clear such stale bits.
 */
#ifndef GREEN_RUNQ_H
#define GREEN_RUNQ_H

#include <sched.h>
#include "green.h"

#define RQ_LEVELS 100
#define RQ_BITS (8 * (int)sizeof(unsigned long))
#define RQ_WORDS ((RQ_LEVELS + RQ_BITS - 1) / RQ_BITS)

struct green_runq {
	struct gq lv[RQ_LEVELS];
	unsigned long bits[RQ_WORDS];
};
extern hidden struct green_runq __green_runq;

/* the level a thread is scheduled at */
static inline int green_level(const struct green_thread *t)
{
	int p = t->policy == SCHED_FIFO || t->policy == SCHED_RR ? t->prio : 0;
	if (t->boost > p) p = t->boost;
	return p < 0 ? 0 : p >= RQ_LEVELS ? RQ_LEVELS - 1 : p;
}

/* the highest level with a runnable thread, or -1 */
static inline int runq_top(void)
{
	int w, l;
	for (w = RQ_WORDS; w--; ) {
		while (__green_runq.bits[w]) {
			l = w * RQ_BITS + RQ_BITS - 1 - __builtin_clzl(__green_runq.bits[w]);
			if (__green_runq.lv[l].head) return l;
			__green_runq.bits[w] &= ~(1UL << l % RQ_BITS);
		}
	}
	return -1;
}

/* A thread above the running one became runnable: the outermost
 * GREEN_LEAVE yields to it. */
static inline void runq_note(struct green_thread *t, int l)
{
	struct green_thread *c = __green_cur;
	if (c && c != t && c->state == GS_RUNNING && l > green_level(c))
		green_pending_set(GREEN_PEND_YIELD);
}

static inline void runq_push(struct green_thread *t)
{
	int l = green_level(t);
	struct gq *q = &__green_runq.lv[l];
	t->q = q;
	t->q_next = 0;
	t->q_prev = q->tail;
	if (q->tail) q->tail->q_next = t;
	else q->head = t;
	q->tail = t;
	__green_runq.bits[l / RQ_BITS] |= 1UL << l % RQ_BITS;
	runq_note(t, l);
}

/* a thread that must run soon (a signal for it): ahead of its level */
static inline void runq_push_front(struct green_thread *t)
{
	int l = green_level(t);
	struct gq *q = &__green_runq.lv[l];
	t->q = q;
	t->q_prev = 0;
	t->q_next = q->head;
	if (q->head) q->head->q_prev = t;
	else q->tail = t;
	q->head = t;
	__green_runq.bits[l / RQ_BITS] |= 1UL << l % RQ_BITS;
	runq_note(t, l);
}

static inline struct green_thread *runq_pop(void)
{
	int l = runq_top();
	struct gq *q;
	struct green_thread *t;
	if (l < 0) return 0;
	q = &__green_runq.lv[l];
	t = q->head;
	q->head = t->q_next;
	if (q->head) q->head->q_prev = 0;
	else {
		q->tail = 0;
		__green_runq.bits[l / RQ_BITS] &= ~(1UL << l % RQ_BITS);
	}
	t->q = 0;
	t->q_next = 0;
	return t;
}

/* the next thread to run: the head, or GREEN_SCHED's choice (explore.c) */
static inline struct green_thread *runq_pick(void)
{
	return __green_xmode ? __green_explore_pick() : runq_pop();
}

static inline int runq_empty(void)
{
	return runq_top() < 0;
}

/* out of line (runq.c) */
hidden void __green_runq_requeue(struct green_thread *, int front);
hidden int __green_runq_should_preempt(struct green_thread *cur);
hidden int __green_runq_higher(struct green_thread *cur);

#endif
