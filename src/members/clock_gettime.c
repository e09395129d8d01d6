/*
 * clock_gettime — green mode answers the CPU-time clocks of green
 * threads (CLOCK_THREAD_CPUTIME_ID and pthread_getcpuclockid's ids:
 * src/core/sched/cputime.c), and under GREEN_SCHED the wall and monotonic
 * clocks from the virtual clock (src/core/sched/explore.c); every other clock
 * is musl's.  gettimeofday and ftime call this; time and timespec_get
 * are replaced to call it (src/members/time.c, timespec_get.c).  musl's member stays
 * (its vDSO lookup is static to it): green-cc links green mode with
 * --wrap=clock_gettime (tools/mkspecs.sh; --wrap=__clock_gettime64 on
 * 32-bit ports, GREEN_WRAP_T64 in ptimer.h), so the program's calls come
 * here first; musl's own callers use __clock_gettime and are unaffected.
 */
#include <time.h>
#include <errno.h>
#include "signal/ptimer.h"
#include "sched/cputime.h"
#include "base/gconfig.h"

int GREEN_REAL_T64(clock_gettime, __clock_gettime64)(clockid_t, struct timespec *);

int GREEN_WRAP_T64(clock_gettime, __clock_gettime64)(clockid_t clk, struct timespec *ts)
{
	uint64_t ns;
	if (__green_xmode && __green_vclock_read(clk, &ns)) {   /* GREEN_SCHED: virtual time */
		ts->tv_sec = ns / 1000000000u;
		ts->tv_nsec = ns % 1000000000u;
		return 0;
	}
	switch (__green_cpu_clock(clk, &ns)) {
	case 0:
		return GREEN_REAL_T64(clock_gettime, __clock_gettime64)(clk, ts);
	case 1:
		ts->tv_sec = ns / 1000000000u;
		ts->tv_nsec = ns % 1000000000u;
		return 0;
	default:
		errno = EINVAL;
		return -1;
	}
}
