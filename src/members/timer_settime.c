/*
 * timer_settime — arms or disarms a timer, one-shot or periodic.
 * green-cc links green mode with --wrap=timer_settime (tools/mkspecs.sh;
 * --wrap=__timer_settime64 on 32-bit ports, GREEN_WRAP_T64 in ptimer.h):
 * green's SIGEV_THREAD timers (src/core/signal/posix_timer.c) are handled
 * here, kernel timers by musl's timer_settime.
 */
#include <time.h>
#include <errno.h>
#include <signal.h>
#include "signal/ptimer.h"

int GREEN_REAL_T64(timer_settime, __timer_settime64)(timer_t, int, const struct itimerspec *restrict, struct itimerspec *restrict);

int GREEN_WRAP_T64(timer_settime, __timer_settime64)(timer_t id, int flags, const struct itimerspec *restrict v, struct itimerspec *restrict old)
{
	int r;
	if (!green_timer_id(id)) return GREEN_REAL_T64(timer_settime, __timer_settime64)(id, flags, v, old);
	if ((r = __green_timer_settime(id, flags, v, old))) {
		errno = r;
		return -1;
	}
	return 0;
}
