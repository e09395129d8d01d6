/*
 * deliver.c — POSIX per-thread signal semantics on one kernel thread.
 *
 * Design
 * ------
 * The kernel sees one thread, so it cannot know which green thread a
 * signal is for, which masks it, or which waits for it in sigwait.  Once
 * a second thread exists green keeps that state itself ("__green_sig_virtual"):
 *
 *   __green_sig_disp[]        the program's dispositions, as sigaction() set them
 *   t->sigmask    each thread's mask (pthread_sigmask)
 *   t->sigpend    signals directed at a thread (pthread_kill, raise),
 *                 with their instances in t->sigq (sigqueue.c)
 *   proc_pend     process-directed signals every thread masks (__green_proc_q)
 *
 * and keeps the kernel's mask empty.  For every signal the program
 * catches, or that some thread blocks or waits for, the kernel runs one
 * library handler, the catcher.  The catcher chooses the thread as POSIX
 * says — the main thread if it does not block it (as Linux), else a
 * thread waiting in sigwait for it, else one waiting in
 * sigsuspend or pause that does not mask it, else the running thread if
 * it does not mask it, else any thread that does not, else pending for
 * the process; but the running thread takes a CPU-time timer's signal,
 * and one chosen for a thread below its priority, when it does not mask
 * it (dispatch) — and then:
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
 * This file is the machinery: the state, the catcher, choosing a thread,
 * running handlers, start-up.  The back-ends of the public calls
 * (sigaction, pthread_sigmask, sigpending, sigtimedwait, sigsuspend,
 * pthread_kill) are in sigcalls.c; gsignal.h is what the two share.
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
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "signal/gsignal.h"
#include "stack/gstack.h"
#include "sched/runq.h"
#include "sched/tick.h"

hidden uint64_t __green_proc_pend;
hidden struct green_sigl __green_proc_q;        /* its instances (sigqueue.c) */
hidden struct sigaction __green_sig_disp[NSIG_V];   /* the program's view */
hidden uint64_t __green_sig_caught;                 /* the kernel runs the catcher for these */
static volatile uint64_t arrived;       /* caught inside a no-preempt section */
static siginfo_t ainfo[NSIG_V];
hidden volatile uint64_t __green_sig_held;   /* of those, blocked in the kernel meanwhile */
hidden int __green_sig_virtual;                     /* state is __green_sig_virtual (threads exist) */

hidden uint64_t __green_sigbits(const sigset_t *set)
{
	return green_kbits(set);
}

hidden void __green_sigset(sigset_t *set, uint64_t b)
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
hidden void __green_sig_catch(int s)
{
	struct sigaction ka = { 0 };
	if (s == SIGALRM || (__green_sig_caught & BIT(s)) || (UNBLOCKABLE & BIT(s))) return;
	if (s == SIGSEGV) return;   /* the guard handler's (separate.c), which chains to the program's */
	if (__green_sig_disp[s].sa_handler == SIG_IGN) return;
	ka.sa_sigaction = catcher;
	ka.sa_flags = SA_SIGINFO | (__green_sig_disp[s].sa_flags & (SA_RESTART | SA_ONSTACK));
	if (!__libc_sigaction(s, &ka, 0)) __green_sig_caught |= BIT(s);
}

hidden void __green_sig_catch_set(uint64_t b)
{
	b &= ~(UNBLOCKABLE | GREEN_LIBC_SIGS);
	while (b) {
		int s = lowest(b);
		b &= b - 1;
		__green_sig_catch(s);
	}
}

/* The default action of a terminating signal: die of it, as the kernel
 * would have killed us. */
/* the signals whose default action dumps core */
#define DEFAULT_CORE (BIT(SIGQUIT) | BIT(SIGILL) | BIT(SIGTRAP) | BIT(SIGABRT) | BIT(SIGBUS) | \
                      BIT(SIGFPE) | BIT(SIGSEGV) | BIT(SIGXCPU) | BIT(SIGXFSZ) | BIT(SIGSYS))

static void die(int s)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	if (!(BIT(s) & DEFAULT_STOP))
		__green_explore_report();   /* under GREEN_SCHED: the seed and decision hash */
	if (BIT(s) & DEFAULT_CORE)
		__green_copied_for_core();  /* copied stacks' frames where a core shows them */
	__libc_sigaction(s, &dfl, 0);
	__green_sig_caught &= ~BIT(s);
	__syscall(SYS_tkill, __syscall(SYS_gettid), s);
	kernel_unblock(BIT(s));
	/* a stop signal: we were stopped and continued; catch it again */
	__green_sig_catch(s);
}

/* ---- running handlers */

static void run_handler(struct green_thread *t, int s, siginfo_t *si, void *uc)
{
	struct sigaction d = __green_sig_disp[s];
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
		__green_sig_disp[s].sa_handler = SIG_DFL;
		__green_sig_disp[s].sa_flags &= ~SA_SIGINFO;
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

hidden void __green_sig_synth(siginfo_t *si, int s, int code)
{
	memset(si, 0, sizeof *si);
	si->si_signo = s;
	si->si_code = code;
	si->si_pid = getpid();
	si->si_uid = getuid();
}

/* Inside GREEN_ENTER: take the lowest pending signal of set b for the
 * running thread — its own instances before the process's — or 0. */
hidden int __green_sig_take(uint64_t b, siginfo_t *si)
{
	struct green_thread *self = __green_cur;
	uint64_t p = (self->sigpend | __green_proc_pend) & b;
	int s;

	if (!p) return 0;
	s = lowest(p);
	if (self->sigpend & BIT(s)) __green_sigq_take(&self->sigpend, &self->sigq, s, si);
	else __green_sigq_take(&__green_proc_pend, &__green_proc_q, s, si);
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
		s = __green_sig_take(~self->sigmask, &si);
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

hidden void __green_sig_hand_over(struct green_thread *t, int s, const siginfo_t *si)
{
	t->sigwait_got = s;
	t->sigwait_si = *si;
	__green_wake_sleeper(t);   /* it slept: ahead of threads that compute */
	__green_tick_soon();
}

/* Interrupt t's wait so that it runs its handler (EINTR to the wait),
 * ahead of the threads already runnable: signals are urgent. */
hidden void __green_sig_interrupt(struct green_thread *t)
{
	if (t->state != GS_BLOCKED) return;
	t->intr_at = __green_now();     /* what nanosleep reports left */
	__green_wake_first(t, EINTR);
	__green_tick_soon();            /* it preempts a thread that computes */
}

/* Inside GREEN_ENTER: s is pending for t now; end its wait if it can
 * take it. */
static void pend_on(struct green_thread *t, const siginfo_t *si)
{
	__green_sigq_put(&t->sigpend, &t->sigq, si);
	if (!(t->sigmask & BIT(si->si_signo))) __green_sig_interrupt(t);
}

/* The running thread does not mask b: it can take it now. */
static int can_take(const struct green_thread *self, uint64_t b)
{
	return self->state == GS_RUNNING && !(self->sigmask & b);
}

/* The signal of an expired process CPU-time interval timer
 * (setitimer's ITIMER_PROF, ITIMER_VIRTUAL): the kernel sends it as
 * SI_KERNEL, and gives it to the thread that was running. */
static int cpu_timer(int s, const siginfo_t *si)
{
	return (s == SIGPROF || s == SIGVTALRM) && si->si_code == SI_KERNEL;
}

/* A process-directed signal: choose its thread.  Inside GREEN_ENTER.
 * Linux gives it to the main thread when that does not block it, and
 * only otherwise looks for another thread.  Two exceptions, where the
 * chosen thread could not take it soon and the running one can: a
 * CPU-time timer's signal is the running thread's (as on Linux), and
 * a thread that runs at a lower priority than the running one (which
 * it cannot preempt) does not get it. */
static void dispatch(int s, siginfo_t *si, void *uc)
{
	struct green_thread *t, *self = __green_cur, *m = &__green_main;
	uint64_t b = BIT(s);

	if (__green_sig_disp[s].sa_handler == SIG_IGN) return;
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
		if (!(cpu_timer(s, si) && can_take(self, b))) {
			__green_sig_hand_over(t, s, si);
			return;
		}
		t = self;
	}
	if (t != self && can_take(self, b) && (cpu_timer(s, si) || !t || green_level(t) < green_level(self)))
		t = self;
	if (__green_sig_disp[s].sa_handler == SIG_DFL && (b & DEFAULT_IGNORE)) return;
	if (__green_sig_disp[s].sa_handler == SIG_DFL && t) {
		/* a thread takes it: the process ends now, as in the kernel
		 * (run_handler's die: one caller, inlined, as gdb users see it) */
		run_handler(self, s, si, uc);
		return;
	}
	if (!t) {
		__green_sigq_put(&__green_proc_pend, &__green_proc_q, si);
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

/* From the idle loop and a section's end (preempt.c): dispatch what
 * arrived meanwhile. */
hidden void __green_sig_dispatch_arrived(void)
{
	if (!green_pending_take(GREEN_PEND_SIG)) return;
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
		green_idle_cut();   /* the scheduler idles, or is about to: not for long */
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
	uint64_t want = (m & ~(__green_sig_caught & ~keep & ~__green_sig_held)) | add;
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

/* A SIGSEGV that no fault raised (kill, sigqueue) reaches the guard
 * handler (separate.c), which hands it here. */
hidden void __green_sig_sent(int s, siginfo_t *si, void *uc)
{
	catcher(s, si, uc);
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
		else __green_sigq_put(&__green_proc_pend, &__green_proc_q, &si);
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
		if (__libc_sigaction(s, 0, &__green_sig_disp[s])) continue;
		if (__green_sig_disp[s].sa_handler != SIG_DFL && __green_sig_disp[s].sa_handler != SIG_IGN)
			handled |= BIT(s);
	}
	__green_main.sigmask = kmask & ~(UNBLOCKABLE | GREEN_LIBC_SIGS);
	adopt_pending(kmask & ~(UNBLOCKABLE | GREEN_LIBC_SIGS));
	__green_sig_virtual = 1;
	/* our own SIGSEGV guard handler stays the kernel's; the program's
	 * handler is what it chains to */
	/* under GREEN_SCHED, a signal that would kill the process with its
	 * default action passes through the catcher too, so that die()
	 * prints the schedule's hash first (explore.c): a fault (SIGFPE,
	 * SIGILL, SIGBUS; SIGSEGV has the guard handler) or one sent; not
	 * SIGTRAP, which is the debugger's */
	if (__green_xmode) handled |= ~(DEFAULT_IGNORE | DEFAULT_STOP | BIT(SIGTRAP));
	__green_sig_catch_set((handled | __green_main.sigmask) & ~BIT(SIGSEGV));
	__green_itimer_virtualise();
	__syscall(SYS_rt_sigprocmask, SIG_SETMASK, &(uint64_t){ 0 }, 0, _NSIG / 8);
}

hidden int __green_sig_wakeable(void)
{
	struct green_thread *t;
	for (int s = 1; s < NSIG_V; s++) {
		if (BIT(s) & (SYNC_SIGS | GREEN_LIBC_SIGS)) continue;
		if (__green_sig_disp[s].sa_handler != SIG_DFL && __green_sig_disp[s].sa_handler != SIG_IGN) return 1;
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
	if (!__green_sig_virtual || __green_sig_disp[s].sa_handler == SIG_DFL || __green_sig_disp[s].sa_handler == SIG_IGN)
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
	__green_sigq_drop(&__green_proc_pend, &__green_proc_q, ~0ULL);
	arrived = 0;
	if (__green_sig_held) kernel_unblock(__green_sig_held);
	__green_sig_held = 0;
}
