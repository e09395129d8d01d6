/*
 * runq.c — the run queue's storage and its out-of-line entry points
 * (the inline versions are in runq.h).
 */
#include "runq.h"

hidden struct gq __green_runq;

hidden void __green_runq_push(struct green_thread *t) { runq_push(t); }
hidden struct green_thread *__green_runq_pop(void) { return runq_pop(); }
hidden int __green_runq_empty(void) { return runq_empty(); }

hidden void __green_runq_reset(void)
{
	__green_runq.head = __green_runq.tail = 0;
}
