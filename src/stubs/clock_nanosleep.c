/*
 * clock_nanosleep.c — sleeping parks only the caller.
 *
 * nanosleep, sleep, usleep and thrd_sleep all reach __clock_nanosleep.
 * Until a second thread exists the call goes straight to the kernel.
 * Afterwards the caller waits on the timer heap and the other threads
 * run; when none can, the process sleeps in the kernel until the nearest
 * deadline (sched.c).  The process CPU-time clock cannot be slept on by
 * one of several threads sharing a kernel thread: ENOTSUP, as POSIX
 * allows, and so is another thread's (pthread_getcpuclockid), which Linux
 * would sleep on; the caller's own (CLOCK_THREAD_CPUTIME_ID or its id
 * from pthread_getcpuclockid) is EINVAL, as Linux and glibc answer.
 */
#include <time.h>
#include <errno.h>
#include "base/gthread.h"
#include "sched/gsched.h"
#include "base/gconfig.h"

/* Exactly the calls stock musl makes: the original calls with 32-bit
 * fields while the time fits them (on CPUs whose time_t outgrew long),
 * the *_time64 call otherwise. */
static int kernel_sleep(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem)
{
	long r;
#ifdef SYS_clock_nanosleep_time64
	if (SYS_clock_nanosleep == SYS_clock_nanosleep_time64 || req->tv_sec != (long)req->tv_sec)
		return -__syscall_cp(SYS_clock_nanosleep_time64, clk, flags,
		                     ((long long[]){ req->tv_sec, req->tv_nsec }), rem);
	long k[2] = { req->tv_sec, req->tv_nsec };
	if (clk == CLOCK_REALTIME && !flags) r = __syscall_cp(SYS_nanosleep, k, k);
	else r = __syscall_cp(SYS_clock_nanosleep, clk, flags, k, k);
	if (r == -EINTR && rem && !(flags & TIMER_ABSTIME)) {
		rem->tv_sec = k[0];
		rem->tv_nsec = k[1];
	}
#else
	if (clk == CLOCK_REALTIME && !flags) r = __syscall_cp(SYS_nanosleep, req, rem);
	else r = __syscall_cp(SYS_clock_nanosleep, clk, flags, req, rem);
#endif
	return -r;
}

int __clock_nanosleep(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem)
{
	uint64_t deadline, left;
	int err = 0;

	if (clk == CLOCK_THREAD_CPUTIME_ID) return EINVAL;
	if (!green_active()) return kernel_sleep(clk, flags, req, rem);

	/* a thread's CPU clock: the caller's own is EINVAL, as Linux says */
	if (clk < 0 && (clk & 4) && -(clk >> 3) - 1 == green_self_tid()) return EINVAL;
	if (clk == CLOCK_PROCESS_CPUTIME_ID || clk < 0) return ENOTSUP;
	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC && clk != CLOCK_BOOTTIME &&
	    clk != CLOCK_TAI)
		return EINVAL;
	if (req->tv_nsec < 0 || req->tv_nsec >= 1000000000) return EINVAL;
	if (flags & TIMER_ABSTIME) {
		deadline = __green_deadline(clk, req, &err);
		if (err) return err;
	} else {
		if (req->tv_sec < 0) return EINVAL;
		deadline = __green_deadline_rel(req);
	}

	if (__green_xmode) __green_explore_sleep(deadline);   /* sleep(0) in a spin loop */
	if (!__green_sleep(deadline, &left)) return 0;
	if (rem && !(flags & TIMER_ABSTIME)) {
		rem->tv_sec = left / 1000000000u;
		rem->tv_nsec = left % 1000000000u;
	}
	return EINTR;
}

weak_alias(__clock_nanosleep, clock_nanosleep);
