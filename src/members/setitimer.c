/* setitimer.c — ITIMER_REAL is virtual once threads exist (tick.c): one
 * real timer serves the program's alarm and the time slice.  alarm() and
 * ualarm() come through here. */
#include <sys/time.h>
#include <errno.h>
#include "base/gthread.h"
#include "signal/gsignal.h"
#include "base/ktime.h"

int setitimer(int which, const struct itimerval *restrict new, struct itimerval *restrict old)
{
	if (which == ITIMER_REAL && green_active())
		return __syscall_ret(__green_setitimer(new, old));
	return __syscall_ret(green_k_setitimer(which, new, old));
}
