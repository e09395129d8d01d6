/*
 * timer_gettime — the time to a timer's next expiry and its period.
 * green-cc links green mode with --wrap=timer_gettime (tools/mkspecs.sh;
 * --wrap=__timer_gettime64 on 32-bit ports, GREEN_WRAP_T64 in ptimer.h):
 * green's SIGEV_THREAD timers (src/core/signal/posix_timer.c) are handled
 * here, kernel timers by musl's timer_gettime.
 */
#include <time.h>
#include <errno.h>
#include <signal.h>
#include "signal/ptimer.h"

int GREEN_REAL_T64(timer_gettime, __timer_gettime64)(timer_t, struct itimerspec *);

int GREEN_WRAP_T64(timer_gettime, __timer_gettime64)(timer_t id, struct itimerspec *v)
{
	int r;
	if (!green_timer_id(id)) return GREEN_REAL_T64(timer_gettime, __timer_gettime64)(id, v);
	if ((r = __green_timer_gettime(id, v))) {
		errno = r;
		return -1;
	}
	return 0;
}
