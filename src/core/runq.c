/*
 * runq.c — the run queue: RUNNABLE threads in FIFO order.
 *
 * Kept behind three functions so that a priority run queue (one FIFO per
 * level, SCHED_FIFO/SCHED_RR) replaces this file without touching the
 * scheduler.
 */
#include "green.h"

static struct gq runq;

hidden void __green_runq_push(struct green_thread *t)
{
	__gq_push(&runq, t);
}

hidden struct green_thread *__green_runq_pop(void)
{
	return __gq_pop(&runq);
}

hidden int __green_runq_empty(void)
{
	return gq_empty(&runq);
}

hidden void __green_runq_reset(void)
{
	runq.head = runq.tail = 0;
}
