/*
 * timer_gettime — the time to a timer's next expiry and its period.
 * green-cc links green mode with --wrap=timer_gettime (tools/mkspecs.sh):
 * green's SIGEV_THREAD timers (src/core/posix_timer.c) are handled
 * here, kernel timers by musl's timer_gettime.
 */
#include <time.h>
#include <errno.h>
#include <signal.h>
#include "green.h"

int __real_timer_gettime(timer_t, struct itimerspec *);

int __wrap_timer_gettime(timer_t id, struct itimerspec *v)
{
	int r;
	if (!green_timer_id(id)) return __real_timer_gettime(id, v);
	if ((r = __green_timer_gettime(id, v))) {
		errno = r;
		return -1;
	}
	return 0;
}
