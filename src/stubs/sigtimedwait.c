/* sigtimedwait.c — sigwait, sigwaitinfo and sigtimedwait park only the
 * caller; the signal is handed to it by green's dispatch (signal.c). */
#include <signal.h>
#include <errno.h>
#include "green.h"

hidden int __green_sigtimedwait(const sigset_t *, siginfo_t *, const struct timespec *);

int sigtimedwait(const sigset_t *restrict mask, siginfo_t *restrict si, const struct timespec *restrict timeout)
{
	int r;
	if (green_active()) return __syscall_ret(__green_sigtimedwait(mask, si, timeout));
#ifdef SYS_rt_sigtimedwait_time64
	/* 32-bit CPUs: the time64 call takes two long longs */
	do r = syscall_cp(SYS_rt_sigtimedwait_time64, mask, si,
	                  timeout ? ((long long[]){ timeout->tv_sec, timeout->tv_nsec }) : 0, _NSIG / 8);
#else
	do r = syscall_cp(SYS_rt_sigtimedwait, mask, si, timeout, _NSIG / 8);
#endif
	while (r < 0 && errno == EINTR);
	return r;
}
