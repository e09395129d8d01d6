/*
 * ktime.h — time structures as the kernel wants them.
 *
 * On 32-bit CPUs musl's time_t is 64 bits while the kernel's original
 * calls (setitimer, nanosleep, ppoll, rt_sigtimedwait...) take 32-bit
 * fields; the *_time64 calls take two long longs.  Raw system calls in
 * green go through these helpers so one source serves both widths.
 */
#ifndef GREEN_KTIME_H
#define GREEN_KTIME_H

#include <time.h>
#include <sys/time.h>
#include "base/seam.h"

#define GREEN_KTIME_WIDE (sizeof(time_t) > sizeof(long))

/* setitimer/getitimer(ITIMER_REAL ...) with struct itimerval */
static inline long green_k_setitimer(int which, const struct itimerval *nv, struct itimerval *ov)
{
	if (GREEN_KTIME_WIDE) {
		long n[4], o[4];
		long r;
		if (nv) {
			n[0] = nv->it_interval.tv_sec; n[1] = nv->it_interval.tv_usec;
			n[2] = nv->it_value.tv_sec;    n[3] = nv->it_value.tv_usec;
		}
		r = __syscall(SYS_setitimer, which, nv ? n : 0, ov ? o : 0);
		if (!r && ov) {
			ov->it_interval.tv_sec = o[0]; ov->it_interval.tv_usec = o[1];
			ov->it_value.tv_sec = o[2];    ov->it_value.tv_usec = o[3];
		}
		return r;
	}
	return __syscall(SYS_setitimer, which, nv, ov);
}

static inline long green_k_getitimer(int which, struct itimerval *ov)
{
	if (GREEN_KTIME_WIDE) {
		long o[4];
		long r = __syscall(SYS_getitimer, which, o);
		if (!r) {
			ov->it_interval.tv_sec = o[0]; ov->it_interval.tv_usec = o[1];
			ov->it_value.tv_sec = o[2];    ov->it_value.tv_usec = o[3];
		}
		return r;
	}
	return __syscall(SYS_getitimer, which, ov);
}

/* ppoll/pselect6 with a timespec: the *_time64 calls where they exist
 * (two long longs), the original ones elsewhere */
#ifdef SYS_ppoll_time64
#define GREEN_SYS_PPOLL    SYS_ppoll_time64
#define GREEN_SYS_PSELECT6 SYS_pselect6_time64
#else
#define GREEN_SYS_PPOLL    SYS_ppoll
#define GREEN_SYS_PSELECT6 SYS_pselect6
#endif

/* timer_settime of a kernel POSIX timer (its id as the kernel gave it),
 * relative, in nanoseconds: the *_time64 call where there is one */
static inline long green_k_timer_settime(int id, unsigned long long value, unsigned long long every)
{
#ifdef SYS_timer_settime64
	long long v[4] = { every / 1000000000u, every % 1000000000u, value / 1000000000u, value % 1000000000u };
	return __syscall(SYS_timer_settime64, id, 0, v, 0);
#else
	struct itimerspec v = { { every / 1000000000u, every % 1000000000u },
	                        { value / 1000000000u, value % 1000000000u } };
	return __syscall(SYS_timer_settime, id, 0, &v, 0);
#endif
}

static inline const void *green_k_ts(const struct timespec *ts, long long buf[2])
{
#ifdef SYS_ppoll_time64
	if (!ts) return 0;
	buf[0] = ts->tv_sec;
	buf[1] = ts->tv_nsec;
	return buf;
#else
	(void)buf;
	return ts;
#endif
}

#endif
