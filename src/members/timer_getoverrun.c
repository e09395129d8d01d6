/*
 * timer_getoverrun — expiries a notification stood for beyond the first.
 * green-cc links green mode with --wrap=timer_getoverrun (tools/mkspecs.sh):
 * green's SIGEV_THREAD timers (src/core/signal/posix_timer.c) are handled
 * here, kernel timers by musl's timer_getoverrun.
 */
#include <time.h>
#include <errno.h>
#include <signal.h>
#include "signal/ptimer.h"

int __real_timer_getoverrun(timer_t);

int __wrap_timer_getoverrun(timer_t id)
{
	int r;
	if (!green_timer_id(id)) return __real_timer_getoverrun(id);
	if ((r = __green_timer_getoverrun(id)) < 0) {
		errno = -r;
		return -1;
	}
	return r;
}
