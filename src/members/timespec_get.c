/*
 * timespec_get — as time (time.c): under GREEN_SCHED, C11's TIME_UTC is
 * the virtual wall clock (src/core/sched/explore.c); otherwise musl's path.
 */
#include <time.h>
#include "base/gconfig.h"

int timespec_get(struct timespec *ts, int base)
{
	uint64_t ns;

	if (base != TIME_UTC) return 0;
	if (__green_xmode && __green_vclock_read(CLOCK_REALTIME, &ns)) {
		ts->tv_sec = ns / 1000000000u;
		ts->tv_nsec = ns % 1000000000u;
		return base;
	}
	return __clock_gettime(CLOCK_REALTIME, ts) < 0 ? 0 : base;
}
