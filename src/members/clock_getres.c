/*
 * clock_getres — green threads' CPU-time clocks tick in nanoseconds,
 * the resolution the kernel gives its own CPU-time clocks (the values
 * come from it: src/core/sched/cputime.c).  Wrapped like clock_gettime
 * (tools/mkspecs.sh, green mode only); other clocks are musl's.
 */
#include <time.h>
#include <errno.h>
#include "signal/ptimer.h"
#include "sched/cputime.h"

int GREEN_REAL_T64(clock_getres, __clock_getres_time64)(clockid_t, struct timespec *);

int GREEN_WRAP_T64(clock_getres, __clock_getres_time64)(clockid_t clk, struct timespec *ts)
{
	switch (__green_cpu_clock(clk, 0)) {
	case 0:
		return GREEN_REAL_T64(clock_getres, __clock_getres_time64)(clk, ts);
	case 1:
		if (ts) *ts = (struct timespec){ 0, 1 };
		return 0;
	default:
		errno = EINVAL;
		return -1;
	}
}
