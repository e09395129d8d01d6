/* sigtimedwait.c — sigwait, sigwaitinfo and sigtimedwait park only the
 * caller; the signal is handed to it by green's dispatch (deliver.c).
 *
 * The si_code reported: a signal that raise or pthread_kill aimed at a
 * thread (the kernel's tkill, or green's own pthread_kill) is SI_TKILL,
 * a Linux code POSIX does not know; it is reported as SI_USER, which
 * POSIX allows for raise, as glibc's sigtimedwait does too.  A handler
 * still sees SI_TKILL, in glibc as here. */
#include <signal.h>
#include <errno.h>
#include "base/gthread.h"
#include "signal/gsignal.h"

int sigtimedwait(const sigset_t *restrict mask, siginfo_t *restrict si, const struct timespec *restrict timeout)
{
	int r;
	if (green_active()) {
		r = __syscall_ret(__green_sigtimedwait(mask, si, timeout));
	} else {
#ifdef SYS_rt_sigtimedwait_time64
		/* 32-bit CPUs: the time64 call takes two long longs */
		do r = syscall_cp(SYS_rt_sigtimedwait_time64, mask, si,
		                  timeout ? ((long long[]){ timeout->tv_sec, timeout->tv_nsec }) : 0, _NSIG / 8);
#else
		do r = syscall_cp(SYS_rt_sigtimedwait, mask, si, timeout, _NSIG / 8);
#endif
		while (r < 0 && errno == EINTR);
	}
	if (r > 0 && si && si->si_code == SI_TKILL) si->si_code = SI_USER;
	return r;
}
