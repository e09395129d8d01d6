/*
 * signal.c — POSIX per-thread signal semantics on one kernel thread.
 *
 * Design
 * ------
 * The kernel sees one thread, so it cannot know which green thread a
 * signal is for, which masks it, or which waits for it in sigwait.  Once
 * a second thread exists green keeps that state itself ("virtual"):
 *
 *   disp[]        the program's dispositions, as sigaction() set them
 *   t->sigmask    each thread's mask (pthread_sigmask)
 *   t->sigpend    signals directed at a thread (pthread_kill, raise),
 *                 with their instances in t->sigq (sigqueue.c)
 *   proc_pend     process-directed signals every thread masks (proc_q)
 *
 * and keeps the kernel's mask empty.  For every signal the program
 * catches, or that some thread blocks or waits for, the kernel runs one
 * library handler, the catcher.  The catcher chooses the thread as POSIX
 * says — the main thread if it does not block it (as Linux), else a
 * thread waiting in sigwait for it, else one waiting in
 * sigsuspend or pause that does not mask it, else the running thread if
 * it does not mask it, else any thread that does not, else pending for
 * the process — and then:
 *
 *   running thread   its handler runs at once, on its stack, with the
 *                    real siginfo and ucontext (synchronous signals —
 *                    SIGSEGV, SIGFPE, SIGILL, SIGBUS, SIGTRAP — always
 *                    take this path: they belong to the thread that
 *                    caused them);
 *   another thread   the signal is marked pending on it, and if it is
 *                    blocked the wait ends with EINTR; the handler runs
 *                    when that thread is next switched in (switch.c calls
 *                    green_sig_check), on its own stack;
 *   a sigwait        the signal is handed over and the waiter woken.
 *
 * A signal whose disposition is SIG_DFL with a terminating default kills
 * the process exactly as the kernel would: the catcher restores SIG_DFL
 * and re-raises it.
 *
 * The catcher may interrupt the library itself.  Inside a no-preempt
 * section (GREEN_ENTER) it only records the signal; the outermost
 * GREEN_LEAVE dispatches it.  A handler always runs with the no-preempt
 * depth at zero, as ordinary program code.
 *
 * Before the second thread exists every call goes straight to the kernel:
 * a single-threaded program pays nothing.  __green_sig_init moves the
 * kernel's state into the virtual one when threads start.
 *
 * Kernel-level blocking still happens in two places: musl blocks all
 * signals around posix_spawn's vfork child (pthread_sigmask with a full
 * set is applied to the kernel too, and undone by the next mask change of
 * that thread), and fork/abort block them briefly with raw system calls.
 * While such a thread is switched out the others run with signals held
 * back by the kernel; the delay lasts as long as that section.
 */
#include <signal.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include "green.h"
#include "runq.h"

#define BIT(s) (1ULL << ((s) - 1))
#define NSIG_V 65                       /* signals 1..64 */
#define UNBLOCKABLE (BIT(SIGKILL) | BIT(SIGSTOP))
#define SYNC_SIGS (BIT(SIGSEGV) | BIT(SIGBUS) | BIT(SIGFPE) | BIT(SIGILL) | BIT(SIGTRAP) | BIT(SIGSYS))
#define DEFAULT_IGNORE (BIT(SIGCHLD) | BIT(SIGURG) | BIT(SIGWINCH) | BIT(SIGCONT))
#define DEFAULT_STOP (BIT(SIGTSTP) | BIT(SIGTTIN) | BIT(SIGTTOU))

hidden uint64_t __green_proc_pend;
static struct green_sigl proc_q;        /* its instances (sigqueue.c) */
static struct sigaction disp[NSIG_V];   /* the program's view */
static uint64_t caught;                 /* the kernel runs the catcher for these */
static volatile uint64_t arrived;       /* caught inside a no-preempt section */
static siginfo_t ainfo[NSIG_V];
hidden volatile uint64_t __green_sig_held;   /* of those, blocked in the kernel meanwhile */
static int virtual;                     /* state is virtual (threads exist) */

hidden void __green_itimer_virtualise(void);

uint64_t __green_sigbits(const sigset_t *set)
{
	return green_kbits(set);
}

void __green_sigset(sigset_t *set, uint64_t b)
{
	struct green_kset k = green_kset(b);
	memset(set, 0, sizeof *set);
	memcpy(set, &k, sizeof k);
}

static int lowest(uint64_t b)
{
	return __builtin_ctzll(b) + 1;
}

static void kernel_unblock(uint64_t b)
{
	struct green_kset k = green_kset(b);
	__syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &k, 0, _NSIG / 8);
}

/* ---- the kernel side */

static void catcher(int, siginfo_t *, void *);

/* Make the kernel run the catcher for signal s. */
static void catch(int s)
{
	struct sigaction ka = { 0 };
	if (s == SIGALRM || (caught & BIT(s)) || (UNBLOCKABLE & BIT(s))) return;
	if (disp[s].sa_handler == SIG_IGN) return;
	ka.sa_sigaction = catcher;
	ka.sa_flags = SA_SIGINFO | (disp[s].sa_flags & (SA_RESTART | SA_ONSTACK));
	if (!__libc_sigaction(s, &ka, 0)) caught |= BIT(s);
}

static void catch_set(uint64_t b)
{
	b &= ~(UNBLOCKABLE | GREEN_LIBC_SIGS);
	while (b) {
		int s = lowest(b);
		b &= b - 1;
		catch(s);
	}
}

/* The default action of a terminating signal: die of it, as the kernel
 * would have killed us. */
static void die(int s)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	__libc_sigaction(s, &dfl, 0);
	caught &= ~BIT(s);
	__syscall(SYS_tkill, __syscall(SYS_gettid), s);
	kernel_unblock(BIT(s));
	/* a stop signal: we were stopped and continued; catch it again */
	catch(s);
}

/* ---- running handlers */

static void run_handler(struct green_thread *t, int s, siginfo_t *si, void *uc)
{
	struct sigaction d = disp[s];
	uint64_t old = t->sigmask;
	int np = __green_np, wake = t->wake;
	unsigned char canceling = t->canceling;
	void *aux = t->wait_aux;
	ucontext_t fake;

	if (d.sa_handler == SIG_IGN) return;
	if (d.sa_handler == SIG_DFL) {
		if (!(BIT(s) & DEFAULT_IGNORE)) die(s);
		return;
	}
	t->sigmask |= __green_sigbits(&d.sa_mask) & ~UNBLOCKABLE;
	if (!(d.sa_flags & SA_NODEFER)) t->sigmask |= BIT(s);
	if (d.sa_flags & SA_RESETHAND) {
		disp[s].sa_handler = SIG_DFL;
		disp[s].sa_flags &= ~SA_SIGINFO;
	}
	if (!uc) {
		memset(&fake, 0, sizeof fake);
		__green_sigset(&fake.uc_sigmask, old);
		uc = &fake;
	}
	__green_np = 0;
	if (d.sa_flags & SA_SIGINFO) d.sa_sigaction(s, si, uc);
	else d.sa_handler(s);
	__green_np = np;
	t->sigmask = old;
	/* the handler may have waited itself (a sleep, a lock): the wait it
	 * interrupted must see its own outcome, not the handler's */
	t->wake = wake;
	t->canceling = canceling;
	t->wait_aux = aux;
	t->intr_restart = !!(d.sa_flags & SA_RESTART);
}

static void synth_info(siginfo_t *si, int s, int code)
{
	memset(si, 0, sizeof *si);
	si->si_signo = s;
	si->si_code = code;
	si->si_pid = getpid();
	si->si_uid = getuid();
}

/* Inside GREEN_ENTER: take the lowest pending signal of set b for the
 * running thread — its own instances before the process's — or 0. */
static int take(uint64_t b, siginfo_t *si)
{
	struct green_thread *self = __green_cur;
	uint64_t p = (self->sigpend | __green_proc_pend) & b;
	int s;

	if (!p) return 0;
	s = lowest(p);
	if (self->sigpend & BIT(s)) __green_sigq_take(&self->sigpend, &self->sigq, s, si);
	else __green_sigq_take(&__green_proc_pend, &proc_q, s, si);
	return s;
}

/*
 * Deliver to the running thread everything pending for it that it does
 * not mask (after a switch, an unmask, a raise).
 *
 * Each signal is taken off the pending set inside a no-preempt section,
 * before its handler runs.  Choosing it and clearing its bit must not be
 * split by a tick: a tick that preempted between the two would, when the
 * thread is switched back in, deliver the same signal from the landing
 * hook (switch.c calls green_sig_check), and then this loop would deliver
 * it a second time with its stale choice.
 */
hidden void __green_sig_deliver(void)
{
	struct green_thread *self = __green_cur;
	siginfo_t si;
	int s;

	for (;;) {
		GREEN_ENTER();
		s = take(~self->sigmask, &si);
		GREEN_LEAVE();
		if (!s) return;
		run_handler(self, s, &si, 0);
	}
}

static struct green_thread *sigwaiter(uint64_t b)
{
	struct green_thread *t;
	for (t = __green_all; t; t = t->all_next)
		if (t->state == GS_BLOCKED && t->wait == GW_SIGNAL && (t->sigwait_set & b))
			return t;
	return 0;
}

static void hand_to_waiter(struct green_thread *t, int s, const siginfo_t *si)
{
	t->sigwait_got = s;
	t->sigwait_si = *si;
	__green_wake(t, 0);
}

/* Interrupt t's wait so that it runs its handler (EINTR to the wait),
 * ahead of the threads already runnable: signals are urgent. */
static void interrupt(struct green_thread *t)
{
	if (t->state != GS_BLOCKED) return;
	t->intr_at = __green_now();     /* what nanosleep reports left */
	__green_wake(t, EINTR);
	__gq_remove(t);
	runq_push_front(t);
}

/* Inside GREEN_ENTER: s is pending for t now; end its wait if it can
 * take it. */
static void pend_on(struct green_thread *t, const siginfo_t *si)
{
	__green_sigq_put(&t->sigpend, &t->sigq, si);
	if (!(t->sigmask & BIT(si->si_signo))) interrupt(t);
}

/* A process-directed signal: choose its thread.  Inside GREEN_ENTER.
 * Linux gives it to the main thread when that does not block it, and
 * only otherwise looks for another thread. */
static void dispatch(int s, siginfo_t *si, void *uc)
{
	struct green_thread *t, *self = __green_cur, *m = &__green_main;
	uint64_t b = BIT(s);

	if (disp[s].sa_handler == SIG_IGN) return;
	if (m->state != GS_EXITED && m->magic == GREEN_MAGIC &&
	    (!(m->sigmask & b) || (m->state == GS_BLOCKED && m->wait == GW_SIGNAL && (m->sigwait_set & b)))) {
		t = m;
	} else if (!(t = sigwaiter(b))) {
		/* a thread in sigsuspend or pause is waiting for exactly this */
		for (t = __green_all; t; t = t->all_next)
			if (t->state == GS_BLOCKED && t->wait == GW_SIGNAL && !t->sigwait_set &&
			    !(t->sigmask & b))
				break;
		if (!t && !(self->sigmask & b) && self->state == GS_RUNNING) t = self;
		for (t = t ? t : __green_all; t; t = t->all_next)
			if (t->state != GS_EXITED && !(t->sigmask & b)) break;
	}
	if (t && t->state == GS_BLOCKED && t->wait == GW_SIGNAL && (t->sigwait_set & b)) {
		hand_to_waiter(t, s, si);
		return;
	}
	if (disp[s].sa_handler == SIG_DFL && (b & DEFAULT_IGNORE)) return;
	if (!t) {
		__green_sigq_put(&__green_proc_pend, &proc_q, si);
		return;
	}
	if (t == self && self->state == GS_RUNNING) {
		run_handler(self, s, si, uc);   /* at once, with the real context */
		return;
	}
	pend_on(t, si);
}

/*
 * Signals caught while the library was in a critical section.
 *
 * The catcher that finds the no-preempt depth non-zero records the
 * signal and its info in one slot per signal (arrived, ainfo) and leaves
 * that signal blocked in the kernel when it returns (it edits the mask
 * its ucontext restores; sched.c's idle keeps __green_sig_held blocked
 * too).  So no second instance can come before the first is dispatched:
 * the kernel keeps further instances of a real-time signal queued, in
 * order, and delivers the next one when the dispatch below unblocks it.
 */
static void dispatch_arrived(void)
{
	uint64_t b;
	siginfo_t si;
	int s;

	GREEN_ENTER();
	while ((b = arrived)) {
		s = lowest(b);
		green_bits_clear(&arrived, BIT(s));   /* the catcher may interrupt */
		si = ainfo[s];
		dispatch(s, &si, 0);
		if (__green_sig_held & BIT(s)) {
			green_bits_clear(&__green_sig_held, BIT(s));
			kernel_unblock(BIT(s));   /* the next queued instance, if any, arrives */
		}
	}
	green_np_down();
}

/* From the idle loop: dispatch what arrived while we waited. */
hidden void __green_sig_dispatch_arrived(void)
{
	if (!(__green_pending & GREEN_PEND_SIG)) return;
	green_pending_clear(GREEN_PEND_SIG);
	dispatch_arrived();
}

/* Entry for a signal generated by green itself (the virtual alarm), and
 * the catcher's. */
hidden void __green_sig_generate(int s, siginfo_t *si, void *uc)
{
	if (__green_np) {
		if (!(arrived & BIT(s))) ainfo[s] = *si;   /* else a standard one: merged */
		green_bits_or(&arrived, BIT(s));
		green_pending_set(GREEN_PEND_SIG);
		return;
	}
	green_np_up();
	dispatch(s, si, uc);
	green_np_down();
}

/*
 * The kernel mask a handler's return restores (its ucontext's), adjusted:
 * plus `add`, and minus every caught signal that green no longer holds.
 * A signal held while a handler interrupted another (a tick, say) may be
 * dispatched, and unblocked, before the outer handler returns; the outer
 * handler's saved mask, taken while it was held, would block it again
 * for good (and with it every later instance).  So each of green's
 * handlers, as it returns, drops what is no longer held from the mask it
 * restores.  SIGALRM and SIGTRAP are the tick's own (sched.c, tick.c).
 */
hidden void __green_sig_fix_uc(void *uc, uint64_t add)
{
#if GREEN_ARCH_UC_HAS_MASK
	ucontext_t *u = uc;
	uint64_t m = green_kbits(&u->uc_sigmask), keep = BIT(SIGALRM) | BIT(SIGTRAP);
	uint64_t want = (m & ~(caught & ~keep & ~__green_sig_held)) | add;
	if (want != m) {
		struct green_kset k = green_kset(want);
		memcpy(&u->uc_sigmask, &k, sizeof k);
	}
#else
	(void)uc;
	(void)add;
#endif
}

static void catcher(int s, siginfo_t *si, void *uc)
{
	int e = errno;
	if ((BIT(s) & SYNC_SIGS) && si->si_code > 0) {
		/* caused by the running thread: its handler, now */
		run_handler(__green_cur, s, si, uc);
	} else if (__green_np && GREEN_ARCH_UC_HAS_MASK) {
		green_bits_or(&__green_sig_held, BIT(s));   /* held until dispatched */
		__green_sig_generate(s, si, uc);
	} else {
		__green_sig_generate(s, si, uc);
	}
	__green_sig_fix_uc(uc, __green_sig_held & BIT(s));
	errno = e;
}

hidden void __green_preempt_now(void)
{
	int p = green_pending_take();
	if (p & GREEN_PEND_SIG) dispatch_arrived();
	if (p & GREEN_PEND_POLL) {
		GREEN_ENTER();
		__green_tick_check();
		green_np_down();
	}
	if ((p & GREEN_PEND_YIELD) || ((p & GREEN_PEND_SLICE) && __green_tick_slice_over(1)))
		__green_yield();
	green_sig_check(__green_cur);
}

/* ---- start-up: from the kernel's state to the virtual one */

/* Signals the kernel holds pending because the one thread blocked them
 * become green's: a thread-directed one (raise, tkill) is the main
 * thread's alone, any other the process's. */
static void adopt_pending(uint64_t b)
{
	struct green_kset k = green_kset(b);
	siginfo_t si;
	long r;

	for (;;) {
#ifdef SYS_rt_sigtimedwait_time64
		r = __syscall(SYS_rt_sigtimedwait_time64, &k, &si, ((long long[]){ 0, 0 }), _NSIG / 8);
#else
		r = __syscall(SYS_rt_sigtimedwait, &k, &si, &(struct timespec){ 0 }, _NSIG / 8);
#endif
		if (r <= 0 || r >= NSIG_V) return;
		if (si.si_code == SI_TKILL) __green_sigq_put(&__green_main.sigpend, &__green_main.sigq, &si);
		else __green_sigq_put(&__green_proc_pend, &proc_q, &si);
	}
}

hidden void __green_sig_init(void)
{
	uint64_t kmask, handled = 0;
	struct green_kset k = { 0 };
	int s;

	__syscall(SYS_rt_sigprocmask, SIG_BLOCK, 0, &k, _NSIG / 8);
	kmask = green_kbits(&k);
	for (s = 1; s < NSIG_V; s++) {
		if (BIT(s) & (UNBLOCKABLE | GREEN_LIBC_SIGS)) continue;
		if (__libc_sigaction(s, 0, &disp[s])) continue;
		if (disp[s].sa_handler != SIG_DFL && disp[s].sa_handler != SIG_IGN)
			handled |= BIT(s);
	}
	__green_main.sigmask = kmask & ~(UNBLOCKABLE | GREEN_LIBC_SIGS);
	adopt_pending(kmask & ~(UNBLOCKABLE | GREEN_LIBC_SIGS));
	virtual = 1;
	/* our own SIGSEGV guard handler stays the kernel's; the program's
	 * handler is what it chains to */
	catch_set((handled | __green_main.sigmask) & ~BIT(SIGSEGV));
	__green_itimer_virtualise();
	__syscall(SYS_rt_sigprocmask, SIG_SETMASK, &(uint64_t){ 0 }, 0, _NSIG / 8);
}

hidden int __green_sig_wakeable(void)
{
	struct green_thread *t;
	extern hidden int __green_itimer_armed(void);
	for (int s = 1; s < NSIG_V; s++) {
		if (BIT(s) & (SYNC_SIGS | GREEN_LIBC_SIGS)) continue;
		if (disp[s].sa_handler != SIG_DFL && disp[s].sa_handler != SIG_IGN) return 1;
	}
	for (t = __green_all; t; t = t->all_next)
		if (t->state == GS_BLOCKED && t->wait == GW_SIGNAL) return 1;
	return __green_itimer_armed();
}

/* The guard-page SIGSEGV handler's fallback: the program's own handler
 * for a fault that is not a stack overflow.  Returns 0 when the default
 * action applies. */
hidden int __green_sig_sync(int s, siginfo_t *si, void *uc)
{
	if (!virtual || disp[s].sa_handler == SIG_DFL || disp[s].sa_handler == SIG_IGN)
		return 0;
	run_handler(__green_cur, s, si, uc);
	return 1;
}

hidden int __green_intr_restart(void)
{
	return __green_cur->intr_restart;
}

hidden void __green_sig_after_fork(void)
{
	/* the child starts with no pending signals (POSIX) */
	__green_sigq_drop(&__green_cur->sigpend, &__green_cur->sigq, ~0ULL);
	__green_sigq_drop(&__green_proc_pend, &proc_q, ~0ULL);
	arrived = 0;
	if (__green_sig_held) kernel_unblock(__green_sig_held);
	__green_sig_held = 0;
}

/* ---- the public calls, when threads exist */

hidden int __green_sigaction(int s, const struct sigaction *sa, struct sigaction *old)
{
	if (old) *old = disp[s];
	if (!sa) return 0;
	GREEN_ENTER();
	disp[s] = *sa;
	if (sa->sa_handler == SIG_IGN) {
		struct sigaction ign = { .sa_handler = SIG_IGN };
		if (s != SIGALRM) __libc_sigaction(s, &ign, 0);
		caught &= ~BIT(s);
		/* pending ignored signals are discarded */
		__green_sigq_drop(&__green_proc_pend, &proc_q, BIT(s));
		for (struct green_thread *t = __green_all; t; t = t->all_next)
			__green_sigq_drop(&t->sigpend, &t->sigq, BIT(s));
	} else if (s == SIGSEGV) {
		/* the guard-page handler stays the kernel's and chains here */
	} else if (sa->sa_handler != SIG_DFL || s == SIGALRM) {
		caught &= ~BIT(s);
		catch(s);   /* refresh SA_RESTART / SA_ONSTACK */
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
		__syscall(SYS_rt_sigprocmask, SIG_SETMASK, &(uint64_t){ 0 }, 0, _NSIG / 8);
	}
	if (!set) return 0;
	b = __green_sigbits(set) & ~(UNBLOCKABLE | GREEN_LIBC_SIGS);
	switch (how) {
	case SIG_BLOCK:
		if (__green_sigbits(set) == ~0ULL) {
			/* musl's posix_spawn: the vfork child must not take signals */
			self->kcrit = 1;
			__syscall(SYS_rt_sigprocmask, SIG_BLOCK, set, 0, _NSIG / 8);
		}
		self->sigmask |= b;
		break;
	case SIG_UNBLOCK: self->sigmask &= ~b; break;
	case SIG_SETMASK: self->sigmask = b; break;
	default: return EINVAL;
	}
	GREEN_ENTER();
	catch_set(self->sigmask & ~caught);
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
	if ((s = take(b, si))) {
		GREEN_LEAVE();
		return s;
	}
	catch_set(b & ~caught);
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
	catch_set(self->sigmask & ~caught);
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
	siginfo_t si;
	int r = 0;

	if ((unsigned)s >= NSIG_V || (s && (BIT(s) & GREEN_LIBC_SIGS))) return EINVAL;
	if (!t) return ESRCH;
	/* a thread that has exited but was not joined keeps its ID (POSIX:
	 * its lifetime ends at the join); the signal is discarded, as glibc does */
	if (t->state == GS_EXITED) return t->detached ? ESRCH : 0;
	if (!s) return 0;
	if (!virtual) return -__syscall(SYS_tkill, __syscall(SYS_gettid), s);

	GREEN_ENTER();
	synth_info(&si, s, SI_TKILL);
	if (disp[s].sa_handler == SIG_IGN) {
		/* discarded */
	} else if (t->state == GS_BLOCKED && t->wait == GW_SIGNAL && (t->sigwait_set & BIT(s))) {
		hand_to_waiter(t, s, &si);
	} else if (!(r = __green_sigq_put(&t->sigpend, &t->sigq, &si)) &&
	           t != __green_cur && !(t->sigmask & BIT(s))) {
		interrupt(t);
	}
	GREEN_LEAVE();
	if (t == __green_cur) green_sig_check(t);   /* delivered before we return */
	return r;
}

/* A thread exits: what was pending for it is lost, as on Linux. */
hidden void __green_sig_thread_exit(struct green_thread *t)
{
	__green_sigq_drop(&t->sigpend, &t->sigq, ~0ULL);
}
