/*
 * sigaction.c — signal dispositions.
 *
 * __libc_sigaction talks to the kernel (musl's internal users — the
 * posix_spawn child, abort — need exactly that).  sigaction() and
 * signal() change the program's own disposition: straight in the kernel
 * until threads exist, in green's virtual table afterwards (signal.c),
 * which keeps SIGALRM for the time slice without the program noticing.
 */
#include <signal.h>
#include <string.h>
#include <errno.h>
#include "green.h"
#include "ksigaction.h"

hidden void __restore(), __restore_rt();
hidden int __green_sigaction(int, const struct sigaction *, struct sigaction *);

static unsigned long handler_set[_NSIG / (8 * sizeof(long))];
volatile int __eintr_valid_flag;

/* posix_spawn's child resets these to SIG_DFL */
void __get_handler_set(sigset_t *set)
{
	memcpy(set, handler_set, sizeof handler_set);
}

int __libc_sigaction(int sig, const struct sigaction *restrict sa, struct sigaction *restrict old)
{
	struct k_sigaction ksa, kold;
	long r;

	if (sa) {
		if ((uintptr_t)sa->sa_handler > 1UL) {
			handler_set[(sig - 1) / (8 * sizeof(long))] |= 1UL << (sig - 1) % (8 * sizeof(long));
			if (!(sa->sa_flags & SA_RESTART)) __eintr_valid_flag = 1;
		}
		ksa.handler = sa->sa_handler;
		ksa.flags = sa->sa_flags | SA_RESTORER;
		ksa.restorer = (sa->sa_flags & SA_SIGINFO) ? __restore_rt : __restore;
		memcpy(&ksa.mask, &sa->sa_mask, _NSIG / 8);
	}
	r = __syscall(SYS_rt_sigaction, sig, sa ? &ksa : 0, old ? &kold : 0, _NSIG / 8);
	if (old && !r) {
		memset(old, 0, sizeof *old);
		old->sa_handler = kold.handler;
		old->sa_flags = kold.flags & ~SA_RESTORER;
		memcpy(&old->sa_mask, &kold.mask, _NSIG / 8);
	}
	return __syscall_ret(r);
}

int __sigaction(int sig, const struct sigaction *restrict sa, struct sigaction *restrict old)
{
	if (sig - 32U < 3 || sig - 1U >= _NSIG - 1) {
		errno = EINVAL;
		return -1;
	}
	if (sa && (sig == SIGKILL || sig == SIGSTOP)) {
		errno = EINVAL;
		return -1;
	}
	if (green_active() && sig <= 64) return __green_sigaction(sig, sa, old);
	return __libc_sigaction(sig, sa, old);
}

weak_alias(__sigaction, sigaction);
