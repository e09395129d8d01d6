/*
 * __timedwait.c — musl's internal timed address wait.  Returns 0, or a
 * positive ETIMEDOUT, EINTR or EINVAL as musl's callers expect.
 */
#include <errno.h>
#include "base/gthread.h"
#include "sched/gsched.h"
#include "sync/addrwait.h"

int __timedwait_cp(volatile int *addr, int val, clockid_t clk,
                   const struct timespec *at, int priv)
{
	int err;
	uint64_t deadline = __green_deadline(clk, at, &err);
	if (err) return err;
	err = __green_futex_wait(addr, val, deadline, GW_ADDR);
	return err == ECANCELED ? EINTR : err;
}

int __timedwait(volatile int *addr, int val, clockid_t clk,
                const struct timespec *at, int priv)
{
	int cs, r;
	__pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
	r = __timedwait_cp(addr, val, clk, at, priv);
	__pthread_setcancelstate(cs, 0);
	return r;
}
