/*
 * time — musl's calls its internal __clock_gettime, which green-cc's
 * --wrap does not reach; under GREEN_SCHED the answer must be the virtual
 * wall clock the program's clock_gettime and gettimeofday read
 * (src/core/sched/explore.c), so that a seed fixes it too.  Otherwise musl's
 * path, behind one load and a branch.
 */
#include <time.h>
#include "base/gconfig.h"

time_t time(time_t *t)
{
	struct timespec ts;
	uint64_t ns;

	if (__green_xmode && __green_vclock_read(CLOCK_REALTIME, &ns))
		ts.tv_sec = ns / 1000000000u;
	else
		__clock_gettime(CLOCK_REALTIME, &ts);
	if (t) *t = ts.tv_sec;
	return ts.tv_sec;
}
