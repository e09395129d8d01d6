/*
 * sigaction — the program's dispositions become green's virtual ones once
 * threads exist (src/core/signal/deliver.c); before, and for green itself,
 * glibc's own __sigaction sets the kernel's.
 */
#include <signal.h>
#include <errno.h>
#include "base/gthread.h"
#include "signal/gsignal.h"

int sigaction(int sig, const struct sigaction *restrict sa, struct sigaction *restrict old)
{
	if (sig < 1 || sig >= _NSIG || (sig <= 64 && (GREEN_LIBC_SIGS >> (sig - 1) & 1)) ||
	    (sa && (sig == SIGKILL || sig == SIGSTOP))) {
		errno = EINVAL;
		return -1;
	}
	if (green_active() && sig <= 64) return __green_sigaction(sig, sa, old);
	return __sigaction(sig, sa, old);
}
