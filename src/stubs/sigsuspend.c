/* sigsuspend.c — parks only the caller until one of its handlers runs. */
#include <signal.h>
#include "base/gthread.h"
#include "signal/gsignal.h"

int sigsuspend(const sigset_t *mask)
{
	if (green_active()) return __syscall_ret(__green_sigsuspend(mask));
	return syscall_cp(SYS_rt_sigsuspend, mask, _NSIG / 8);
}
