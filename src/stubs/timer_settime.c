/*
 * timer_settime — arms or disarms a timer, one-shot or periodic.
 * green-cc links green mode with --wrap=timer_settime (tools/mkspecs.sh):
 * green's SIGEV_THREAD timers (src/core/posix_timer.c) are handled
 * here, kernel timers by musl's timer_settime.
 */
#include <time.h>
#include <errno.h>
#include <signal.h>
#include "green.h"

int __real_timer_settime(timer_t, int, const struct itimerspec *restrict, struct itimerspec *restrict);

int __wrap_timer_settime(timer_t id, int flags, const struct itimerspec *restrict v, struct itimerspec *restrict old)
{
	int r;
	if (!green_timer_id(id)) return __real_timer_settime(id, flags, v, old);
	if ((r = __green_timer_settime(id, flags, v, old))) {
		errno = r;
		return -1;
	}
	return 0;
}
