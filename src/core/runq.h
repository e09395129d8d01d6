/*
 * runq.h — the run queue: RUNNABLE threads in FIFO order.
 *
 * Inline because every yield pushes and pops it.  Kept behind these
 * functions so that a priority run queue (one FIFO per level, for
 * SCHED_FIFO/SCHED_RR) replaces this file without touching the scheduler.
 */
#ifndef GREEN_RUNQ_H
#define GREEN_RUNQ_H

#include "green.h"

extern hidden struct gq __green_runq;

static inline void runq_push(struct green_thread *t)
{
	t->q = &__green_runq;
	t->q_next = 0;
	t->q_prev = __green_runq.tail;
	if (__green_runq.tail) __green_runq.tail->q_next = t;
	else __green_runq.head = t;
	__green_runq.tail = t;
}

/* a thread that must run soon (a signal for it): ahead of the others */
static inline void runq_push_front(struct green_thread *t)
{
	t->q = &__green_runq;
	t->q_prev = 0;
	t->q_next = __green_runq.head;
	if (__green_runq.head) __green_runq.head->q_prev = t;
	else __green_runq.tail = t;
	__green_runq.head = t;
}

static inline struct green_thread *runq_pop(void)
{
	struct green_thread *t = __green_runq.head;
	if (!t) return 0;
	__green_runq.head = t->q_next;
	if (__green_runq.head) __green_runq.head->q_prev = 0;
	else __green_runq.tail = 0;
	t->q = 0;
	t->q_next = 0;
	return t;
}

static inline int runq_empty(void)
{
	return !__green_runq.head;
}

#endif
