/*
 * timer_create — SIGEV_THREAD timers are green's own: a dedicated green
 * thread per timer instead of musl's helper waiting for a kernel signal.
 * green-cc links green mode with --wrap=timer_create (tools/mkspecs.sh):
 * green's SIGEV_THREAD timers (src/core/signal/posix_timer.c) are handled
 * here, kernel timers by musl's timer_create.
 */
#include <time.h>
#include <errno.h>
#include <signal.h>
#include "signal/ptimer.h"

int __real_timer_create(clockid_t, struct sigevent *restrict, timer_t *restrict);

int __wrap_timer_create(clockid_t clk, struct sigevent *restrict sev, timer_t *restrict id)
{
	int r;
	if (!sev || sev->sigev_notify != SIGEV_THREAD) return __real_timer_create(clk, sev, id);
	if ((r = __green_timer_create(clk, sev, id))) {
		errno = r;
		return -1;
	}
	return 0;
}
