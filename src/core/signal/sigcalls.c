/*
 * sigcalls.c — the back-ends of the public signal calls once threads
 * exist: sigaction, pthread_sigmask, sigpending, sigtimedwait,
 * sigsuspend, pthread_kill, and what a thread's exit discards.  The
 * machinery they use (the virtual state, the catcher, handing a signal
 * to a thread) is deliver.c's; its essay says how the two fit.
 */
#include <signal.h>
#include <errno.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "thread/lifecycle.h"
#include "signal/gsignal.h"

hidden int __green_sigaction(int s, const struct sigaction *sa, struct sigaction *old)
{
	if (old) *old = __green_sig_disp[s];
	if (!sa) return 0;
	GREEN_ENTER();
	__green_sig_disp[s] = *sa;
	if (sa->sa_handler == SIG_IGN) {
		struct sigaction ign = { .sa_handler = SIG_IGN };
		if (s != SIGALRM) __libc_sigaction(s, &ign, 0);
		__green_sig_caught &= ~BIT(s);
		/* pending ignored signals are discarded: the threads are
		 * walked only if s was made pending since the last walk */
		__green_sigq_drop(&__green_proc_pend, &__green_proc_q, BIT(s));
		if (__green_sigpend_seen & BIT(s)) {
			for (struct green_thread *t = __green_all; t; t = t->all_next)
				__green_sigq_drop(&t->sigpend, &t->sigq, BIT(s));
			__green_sigpend_seen &= ~BIT(s);
		}
	} else if (s == SIGSEGV) {
		/* the guard-page handler stays the kernel's and chains here */
	} else if (sa->sa_handler != SIG_DFL || s == SIGALRM) {
		__green_sig_caught &= ~BIT(s);
		__green_sig_catch(s);   /* refresh SA_RESTART / SA_ONSTACK */
	}
	GREEN_LEAVE();
	return 0;
}

hidden int __green_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	struct green_thread *self = __green_cur;
	uint64_t b;

	if (green_vfork_child())
		/* posix_spawn's vfork child, running on its parent's memory
		 * until it execs: it sets its own mask before exec, which is the
		 * kernel's business only; green's state here is the parent's */
		return -__syscall(SYS_rt_sigprocmask, how, set, old, _NSIG / 8);
	if (old) __green_sigset(old, self->sigmask);
	if (self->kcrit) {
		/* leaving posix_spawn's all-blocked section */
		self->kcrit = 0;
		self->io_slow &= ~GREEN_SLOW_KCRIT;
		__syscall(SYS_rt_sigprocmask, SIG_SETMASK, &(uint64_t){ 0 }, 0, _NSIG / 8);
	}
	if (!set) return 0;
	b = __green_sigbits(set) & ~(UNBLOCKABLE | GREEN_LIBC_SIGS);
	switch (how) {
	case SIG_BLOCK:
		if (__green_sigbits(set) == ~0ULL) {
			/* musl's posix_spawn: the vfork child must not take signals */
			self->kcrit = 1;
			self->io_slow |= GREEN_SLOW_KCRIT;
			__syscall(SYS_rt_sigprocmask, SIG_BLOCK, set, 0, _NSIG / 8);
		}
		self->sigmask |= b;
		break;
	case SIG_UNBLOCK: self->sigmask &= ~b; break;
	case SIG_SETMASK: self->sigmask = b; break;
	default: return EINVAL;
	}
	GREEN_ENTER();
	__green_sig_catch_set(self->sigmask & ~__green_sig_caught);
	GREEN_LEAVE();
	green_sig_check(self);
	return 0;
}

hidden int __green_sigpending(sigset_t *set)
{
	__green_sigset(set, __green_cur->sigpend | __green_proc_pend);
	return 0;
}

/* sigtimedwait: returns the signal number or a negative errno. */
hidden int __green_sigtimedwait(const sigset_t *set, siginfo_t *si, const struct timespec *ts)
{
	struct green_thread *self = __green_cur;
	uint64_t b = __green_sigbits(set) & ~(UNBLOCKABLE | GREEN_LIBC_SIGS), deadline = GREEN_NO_DEADLINE;
	siginfo_t tmp;
	int s, r;

	if (!si) si = &tmp;
	if (ts) {
		if (ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000 || ts->tv_sec < 0) return -EINVAL;
		deadline = __green_deadline_rel(ts);
	}
	__green_cancel_point();
	GREEN_ENTER();
	if ((s = __green_sig_take(b, si))) {
		GREEN_LEAVE();
		return s;
	}
	__green_sig_catch_set(b & ~__green_sig_caught);
	self->sigwait_set = b;
	self->sigwait_got = 0;
	r = GREEN_CP_WAIT(1, __green_wait(0, GW_SIGNAL, 0, deadline));
	self->sigwait_set = 0;
	GREEN_LEAVE();
	if (r == ECANCELED) __green_cancel_point();
	if (!r && self->sigwait_got) {
		*si = self->sigwait_si;
		return self->sigwait_got;
	}
	return r == ETIMEDOUT ? -EAGAIN : -EINTR;
}

/* sigsuspend: wait with a temporary mask until a handler has run. */
hidden int __green_sigsuspend(const sigset_t *mask)
{
	struct green_thread *self = __green_cur;
	uint64_t old = self->sigmask;
	int r;

	__green_cancel_point();
	/* the new mask, the check and the wait are one section: a signal
	 * delivered between the check and the wait (by the catcher or at a
	 * switch) would run its handler before the wait that it must end */
	GREEN_ENTER();
	self->sigmask = __green_sigbits(mask) & ~(UNBLOCKABLE | GREEN_LIBC_SIGS);
	__green_sig_catch_set(self->sigmask & ~__green_sig_caught);
	if ((self->sigpend | __green_proc_pend) & ~self->sigmask) {
		GREEN_LEAVE();
		__green_sig_deliver();
	} else {
		do r = GREEN_CP_WAIT(1, __green_wait(0, GW_SIGNAL, 0, GREEN_NO_DEADLINE));
		while (!r);
		GREEN_LEAVE();
		if (r == ECANCELED) {
			self->sigmask = old;
			__green_cancel_point();
		}
	}
	self->sigmask = old;
	green_sig_check(self);
	return -EINTR;
}

int pthread_kill(pthread_t p, int s)
{
	struct green_thread *t = __green_lookup(p);

	if ((unsigned)s >= NSIG_V || (s && (BIT(s) & GREEN_LIBC_SIGS))) return EINVAL;
	if (!t) return ESRCH;
	/* a thread that has exited but was not joined keeps its ID (POSIX:
	 * its lifetime ends at the join); the signal is discarded, as glibc does */
	if (t->state == GS_EXITED) return t->detached ? ESRCH : 0;
	return __green_thread_signal(t, s, 0);
}

/*
 * Signal s to live thread t, with si (rt_tgsigqueueinfo, tid.c) or as
 * pthread_kill's SI_TKILL (si 0): 0 or an errno.
 */
hidden int __green_thread_signal(struct green_thread *t, int s, const siginfo_t *si)
{
	siginfo_t tk;
	int r = 0;

	if ((unsigned)s >= NSIG_V || (s && (BIT(s) & GREEN_LIBC_SIGS))) return EINVAL;
	if (!s) return 0;
	if (!__green_sig_virtual) {
		if (si) return -__syscall(SYS_rt_tgsigqueueinfo, __syscall(SYS_getpid), __syscall(SYS_gettid), s, si);
		return -__syscall(SYS_tkill, __syscall(SYS_gettid), s);
	}

	GREEN_ENTER();
	if (!si) __green_sig_synth(&tk, s, SI_TKILL);
	else tk = *si, tk.si_signo = s;
	if (__green_sig_disp[s].sa_handler == SIG_IGN) {
		/* discarded */
	} else if (t->state == GS_BLOCKED && t->wait == GW_SIGNAL && (t->sigwait_set & BIT(s))) {
		__green_sig_hand_over(t, s, &tk);
	} else if (!(r = __green_sigq_put(&t->sigpend, &t->sigq, &tk)) &&
	           t != __green_cur && !(t->sigmask & BIT(s))) {
		__green_sig_interrupt(t);
	}
	GREEN_LEAVE();
	if (t == __green_cur) green_sig_check(t);   /* delivered before we return */
	return r;
}

/* A thread exits: what was pending for it is lost, as on Linux. */
hidden void __green_sig_thread_exit(struct green_thread *t)
{
	if (t->sigpend || t->sigq.head) __green_sigq_drop(&t->sigpend, &t->sigq, ~0ULL);
}
