/*
 * sigaction.c — signal dispositions.
 *
 * __libc_sigaction is the kernel's call, translated to and from the
 * kernel's struct (musl's own users — the posix_spawn child, abort —
 * need exactly that).  sigaction() and signal() set the program's own
 * disposition: in the kernel until threads exist, in green's virtual
 * table afterwards (src/core/signal/deliver.c), which keeps SIGALRM for the time
 * slice without the program noticing.
 *
 * Unlike musl's member: no implementation signals to unblock before the
 * first handler (green sends none), no abort lock around SIGABRT,
 * SA_RESTORER never shows in an old action, and SIGKILL or SIGSTOP are
 * refused here before either table is asked.
 */
#include <signal.h>
#include <string.h>
#include <errno.h>
#include "base/gthread.h"
#include "signal/gsignal.h"
#include "ksigaction.h"

hidden void __restore(), __restore_rt();

#define KSET_BYTES (_NSIG / 8)          /* the kernel's signal set */
#define WORD_BITS (8 * sizeof(long))

/* the signals that have ever had a handler (not SIG_DFL or SIG_IGN) */
static unsigned long handler_set[_NSIG / WORD_BITS];
volatile int __eintr_valid_flag;        /* some handler lacks SA_RESTART */

/* posix_spawn's child puts these back to SIG_DFL */
void __get_handler_set(sigset_t *out)
{
	memcpy(out, handler_set, sizeof handler_set);
}

static void note_handler(int sig, int flags)
{
	unsigned bit = sig - 1;

	handler_set[bit / WORD_BITS] |= 1UL << bit % WORD_BITS;
	if (!(flags & SA_RESTART)) __eintr_valid_flag = 1;
}

static void to_kernel(struct k_sigaction *k, const struct sigaction *sa)
{
	int siginfo = sa->sa_flags & SA_SIGINFO;

	k->handler = sa->sa_handler;
	k->flags = sa->sa_flags | SA_RESTORER;
	k->restorer = siginfo ? __restore_rt : __restore;
	memcpy(k->mask, &sa->sa_mask, KSET_BYTES);
}

static void from_kernel(struct sigaction *sa, const struct k_sigaction *k)
{
	memset(sa, 0, sizeof *sa);
	sa->sa_handler = k->handler;
	sa->sa_flags = k->flags & ~SA_RESTORER;
	memcpy(&sa->sa_mask, k->mask, KSET_BYTES);
}

int __libc_sigaction(int sig, const struct sigaction *restrict sa, struct sigaction *restrict old)
{
	struct k_sigaction knew, kold;
	long r;

	if (sa) {
		if (sa->sa_handler != SIG_DFL && sa->sa_handler != SIG_IGN)
			note_handler(sig, sa->sa_flags);
		to_kernel(&knew, sa);
	}
	r = __syscall(SYS_rt_sigaction, sig, sa ? &knew : 0, old ? &kold : 0, KSET_BYTES);
	if (r == 0 && old) from_kernel(old, &kold);
	return __syscall_ret(r);
}

/* Out of range, one of musl's three reserved signals (32 to 34), or an
 * attempt to change SIGKILL or SIGSTOP. */
static int refused(int sig, int changing)
{
	if (sig < 1 || sig >= _NSIG) return 1;
	if (sig >= 32 && sig <= 34) return 1;
	return changing && (sig == SIGKILL || sig == SIGSTOP);
}

int __sigaction(int sig, const struct sigaction *restrict sa, struct sigaction *restrict old)
{
	if (refused(sig, sa != 0)) {
		errno = EINVAL;
		return -1;
	}
	if (!green_active() || sig > 64) return __libc_sigaction(sig, sa, old);
	return __green_sigaction(sig, sa, old);
}

weak_alias(__sigaction, sigaction);
