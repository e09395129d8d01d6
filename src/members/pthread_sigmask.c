/* pthread_sigmask.c — the calling thread's signal mask: the kernel's
 * until threads exist, the green thread's own afterwards (deliver.c). */
#include <signal.h>
#include <errno.h>
#include "base/gthread.h"
#include "signal/gsignal.h"

int pthread_sigmask(int how, const sigset_t *restrict set, sigset_t *restrict old)
{
	if (set && (unsigned)how - SIG_BLOCK > 2U) return EINVAL;
	if (green_active()) return __green_sigmask(how, set, old);
	return -__syscall(SYS_rt_sigprocmask, how, set, old, _NSIG / 8);
}
