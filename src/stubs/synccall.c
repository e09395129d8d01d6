/*
 * synccall.c — run a function "on every thread" (setuid and friends,
 * membarrier).  Kernel-level state belongs to the one kernel thread, so
 * running it once, not preempted, is running it everywhere.
 */
#include "sched/gsched.h"

void __synccall(void (*func)(void *), void *ctx)
{
	__green_unpreempted(func, ctx);
}
