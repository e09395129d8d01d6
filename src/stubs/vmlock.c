/*
 * vmlock.c — musl's lock that keeps munmap away from a process-shared
 * object being released.  A counter and a green wait on one kernel
 * thread.
 */
#include "base/gthread.h"
#include "sched/gsched.h"
#include "sync/addrwait.h"

static volatile int vmlock[2];
volatile int *const __vmlock_lockptr = vmlock;

void __vm_wait(void)
{
	while (vmlock[0])
		__green_futex_wait(vmlock, vmlock[0], GREEN_NO_DEADLINE, GW_ADDR);
}

/* the counter changes by atomic steps: a tick between a load and a
 * store would let another thread's step be lost */
void __vm_lock(void)
{
	__atomic_fetch_add(&vmlock[0], 1, __ATOMIC_RELAXED);
}

void __vm_unlock(void)
{
	if (__atomic_sub_fetch(&vmlock[0], 1, __ATOMIC_RELAXED) == 0)
		__green_futex_wake(vmlock, -1);
}
