/*
 * __wait.c — musl's internal "wait while *addr == val".
 */
#include "base/gthread.h"
#include "sched/gsched.h"
#include "sync/addrwait.h"

void __wait(volatile int *addr, volatile int *waiters, int val, int priv)
{
	/* atomic steps: the counter is shared with other threads' waits */
	if (waiters) __atomic_fetch_add(waiters, 1, __ATOMIC_RELAXED);
	while (*addr == val)
		__green_futex_wait(addr, val, GREEN_NO_DEADLINE, GW_ADDR);
	if (waiters) __atomic_fetch_sub(waiters, 1, __ATOMIC_RELAXED);
}
