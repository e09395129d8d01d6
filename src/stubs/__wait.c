/*
 * __wait.c — musl's internal "wait while *addr == val".
 */
#include "green.h"

void __wait(volatile int *addr, volatile int *waiters, int val, int priv)
{
	if (waiters) ++*waiters;
	while (*addr == val)
		__green_futex_wait(addr, val, GREEN_NO_DEADLINE, GW_ADDR);
	if (waiters) --*waiters;
}
