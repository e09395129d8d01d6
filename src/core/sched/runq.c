/*
 * runq.c — the run queue's storage, and what of it is not inline
 * (runq.h): reset after fork, requeue on a level change, the
 * preemption test.
 */
#include <string.h>
#include "base/gthread.h"
#include "sched/gsched.h"
#include "sched/runq.h"

hidden struct green_runq __green_runq;

hidden void __green_runq_reset(void)
{
	memset(&__green_runq, 0, sizeof __green_runq);
}

/* Inside GREEN_ENTER: t's level changed; put it where the new level
 * says — on the run queue if runnable, in its wait queue if blocked
 * (wait queues are ordered by level too, queue.c). */
hidden void __green_runq_requeue(struct green_thread *t, int front)
{
	struct gq *q = t->q;
	if (!q) return;
	if (t->state == GS_RUNNABLE) {
		runq_remove(t);
		if (front) runq_push_front(t);
		else runq_push(t);
	} else {
		__gq_remove(t);
		__gq_push(q, t);
	}
}

/* Is a thread above cur runnable? */
hidden int __green_runq_higher(struct green_thread *cur)
{
	return runq_top() > green_level(cur);
}

/*
 * Should the tick take the CPU from cur?  Only for a runnable thread of
 * a higher level, or of the same level unless cur is SCHED_FIFO (which
 * runs until it blocks or yields).  Threads of lower levels never get
 * it from a tick.
 */
hidden int __green_runq_should_preempt(struct green_thread *cur)
{
	int top = runq_top(), l = green_level(cur);
	return top > l || (top == l && cur->policy != SCHED_FIFO);
}
