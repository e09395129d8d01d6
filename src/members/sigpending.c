/* sigpending.c — pending for the calling thread or the process. */
#include <signal.h>
#include "base/gthread.h"
#include "signal/gsignal.h"

int sigpending(sigset_t *set)
{
	if (green_active()) return __green_sigpending(set);
	return syscall(SYS_rt_sigpending, set, _NSIG / 8);
}
