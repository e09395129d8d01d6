/*
 * timer_delete — stops a green timer: its thread ends after any call in progress.
 * green-cc links green mode with --wrap=timer_delete (tools/mkspecs.sh):
 * green's SIGEV_THREAD timers (src/core/signal/posix_timer.c) are handled
 * here, kernel timers by musl's timer_delete.
 */
#include <time.h>
#include <errno.h>
#include <signal.h>
#include "signal/ptimer.h"

int __real_timer_delete(timer_t);

int __wrap_timer_delete(timer_t id)
{
	int r;
	if (!green_timer_id(id)) return __real_timer_delete(id);
	if ((r = __green_timer_delete(id))) {
		errno = r;
		return -1;
	}
	return 0;
}
