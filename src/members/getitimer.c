/* getitimer.c — the program's virtual ITIMER_REAL once threads exist. */
#include <sys/time.h>
#include "base/gthread.h"
#include "signal/gsignal.h"
#include "base/ktime.h"

int getitimer(int which, struct itimerval *old)
{
	if (which == ITIMER_REAL && green_active()) return __green_getitimer(old);
	return __syscall_ret(green_k_getitimer(which, old));
}
