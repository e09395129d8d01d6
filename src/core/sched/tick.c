/*
 * tick.c — time slicing and the program's virtual ITIMER_REAL.
 *
 * Design
 * ------
 * One real timer, setitimer(ITIMER_REAL) in one-shot mode, serves two
 * masters: the time slice and the program's own alarm()/ualarm()/
 * setitimer(ITIMER_REAL), which green virtualises once threads exist.
 * The timer is always set to the earlier of the next tick and the
 * program's next expiry, so the program's SIGALRM is exact, not rounded
 * to the quantum.
 *
 * Ticks run while there is anything to watch: two or more threads
 * runnable, or any thread waiting for a deadline, a descriptor or a
 * child.  Without the second half a thread that computes without system
 * calls would never let the library look at the clock or the kernel, and
 * a sleeper or reader beside it would wait until it stopped computing.
 * Each tick is set for the earlier of the next quantum and the nearest
 * deadline in the timer heap, so a sleeper wakes on time, not up to a
 * quantum late.  __green_ready arms the ticks when a thread becomes
 * runnable and they are off; the scheduler arms them when it hands the
 * CPU on while threads wait (__green_tick_watch); a tick that finds
 * nothing to watch does not re-arm, nor one that finds the process idle
 * (the idle wait watches the deadlines and descriptors itself).  An idle
 * or single-threaded program takes no ticks, and a busy yield or a
 * ping-pong never makes a system call to arm or disarm anything (at most
 * one arm per quantum).
 *
 * At each tick the expired deadlines wake their threads and the I/O
 * backend is polled without blocking (__green_poll_check), so waiting
 * threads are woken even while another computes.  A thread whose
 * deadline passed joins the front of the run queue at its priority,
 * ahead of threads that were runnable all along; one whose descriptor is
 * ready joins the tail, as it would from the idle wait (a front place for
 * readiness, which recurs, starves the queue behind it).  The running
 * thread is
 * preempted when it has had the CPU for a whole quantum: the tick notes
 * when it first saw the current thread running (run_since), so a thread
 * switched in part-way through a period gets the rest of it plus the
 * next, one to two quanta.  A thread that was woken by a tick for its
 * deadline therefore gets the CPU at that tick when the running thread
 * has used its quantum, and at the next one otherwise; one woken for
 * its descriptor after the threads ahead of it in the queue.
 *
 * Inside a no-preempt section the tick only records GREEN_PEND_POLL
 * (and GREEN_PEND_SLICE when the quantum is used) and the outermost
 * GREEN_LEAVE does the rest.  So it does while the thread is still in
 * the tick handler that preempted it (in_tick: from before it unblocks
 * SIGALRM to yield until it has blocked it again on its way out, which
 * the handler's return undoes): a tick that preempted it there again
 * would leave a second handler frame on its stack.  On a loaded machine
 * the next tick has often expired by then — at the unblock, or while
 * the other threads ran — and comes at once, so there was one more
 * frame at each preemption, until the stack overflowed (600 threads at a
 * 10 us quantum: tests/prog/heapgrow.c).  Otherwise the handler yields at once,
 * from inside the signal handler: it first unblocks SIGALRM (and SIGTRAP,
 * which the handler runs with masked so that gdb's breakpoints do not
 * race with ticks) so the next thread does not inherit them blocked.  The
 * preempted thread's signal frame stays on its stack and its return from
 * the handler restores every register, including the floating-point
 * state the kernel saved.
 *
 *   SIGALRM ──> idle? ──yes──> stop ticking (the idle wait watches)
 *                 │no
 *                 v
 *               np > 0 ? ──yes──> pending |= POLL (| YIELD); re-arm; return
 *                 │no
 *                 v
 *         expire deadlines, poll descriptors (wakes waiters)
 *         program alarm due? ──> dispatch virtual SIGALRM
 *         quantum used and a thread runnable? ──> unblock SIGALRM+SIGTRAP, yield
 *
 * In the glibc overlay the libc is a separate object whose internal locks
 * belong to the one kernel thread, so a tick whose interrupted pc is not
 * in the program (green_preempt_ok, the libc seam) does not switch: it
 * comes back after RETRY_NS, by when the thread has usually left the
 * libc.  In musl every pc is the program's.
 *
 * A thread that accepted a connection in its turn on the CPU is not
 * preempted at the end of its quantum: it keeps the CPU until it has
 * used ACCEPT_QUANTA quanta more of CPU time in that turn, then joins the
 * tail.  A server's acceptor whose listen queue is never empty never
 * waits, so the tick preempts it; behind it in the run queue is every
 * worker with a request, one more for each connection it accepted, and
 * with thousands of connections it would get one quantum per cycle of
 * them while connections beyond the listen queue are refused and retried
 * seconds later (docs/servers.md).  Accepting is cheap and each accepted
 * connection is work for the others, so a run of quanta drains the
 * queue; the bound keeps a flood of connections from starving the
 * threads already serving.  The bound is counted in the kernel's CPU
 * clock, not in ticks: on a loaded machine a tick's quantum of real time
 * holds less of the process's CPU, and the acceptor's share must not
 * shrink with it.  A turn ends at any switch (__green_nswitch moves), so
 * an acceptor that waits, or yields, starts again from nothing.
 *
 *   accept() returns a connection ──> __green_tick_accepted():
 *                                     accepted_turn = this turn
 *   tick, quantum used, same priority runnable:
 *     accepted this turn? ──no──> preempt
 *       │yes
 *       v
 *     first time this turn? ──> keep_from = CPU clock now
 *     CPU clock - keep_from < ACCEPT_QUANTA quanta? ──yes──> keep running
 *       │no
 *       v
 *     preempt (to the tail; the next turn starts from nothing)
 *
 * The default quantum (GREEN_QUANTUM_MS, DEFAULT_QUANTUM_MS below) is
 * chosen from the measurement in docs/preemption.md.
 *
 * The timer and the program's alarms run on the real clock
 * (__green_real_now); the deadlines of waiting threads on the scheduler's,
 * which is virtual under GREEN_SCHED (explore.c), when no tick runs.
 */
#include <signal.h>
#include <string.h>
#include <errno.h>
#include <sys/time.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "sched/tick.h"
#include "idlewait.h"
#include "stack/gstack.h"
#include "sched/cputime.h"
#include "base/gconfig.h"
#include "signal/gsignal.h"
#include "base/ktime.h"
#include "sched/runq.h"

#define DEFAULT_QUANTUM_MS 10
#define RETRY_NS 1000000ull      /* a tick that found the thread in the libc */
#define ACCEPT_QUANTA 8          /* quanta of CPU time more for a thread accepting */

hidden int __green_ticking;
hidden unsigned long __green_nswitch;

static uint64_t quantum;              /* ns; 0 = cooperative only */
static uint64_t next_tick;            /* deadline of the next tick, 0 = none */
static unsigned long seen_nswitch;   /* __green_nswitch at the last tick */
static uint64_t run_since;            /* when a tick first saw the current thread run */
static uint64_t alarm_at, alarm_every; /* the program's virtual ITIMER_REAL */
static uint64_t armed_at;             /* what the real timer is set to */
static int virtual;
static unsigned long accepted_turn;   /* __green_nswitch + 1 at the last accept */
static unsigned long slice_turn;      /* __green_nswitch when GREEN_PEND_SLICE was last set */
static unsigned long keep_turn;       /* the turn the acceptor's keep started in, + 1 */
static uint64_t keep_from;            /* the kernel's CPU clock then */

static void set_real(uint64_t at, uint64_t now)
{
	struct itimerval it = { 0 };
	if (at) {
		uint64_t d = at > now ? at - now : 1000;
		it.it_value.tv_sec = d / 1000000000u;
		it.it_value.tv_usec = (d % 1000000000u + 999) / 1000;
		if (!it.it_value.tv_sec && !it.it_value.tv_usec) it.it_value.tv_usec = 1;
	}
	if (at || armed_at) green_k_setitimer(ITIMER_REAL, &it, 0);
	armed_at = at;
}

/* Set the real timer to the earlier of the two masters. */
static void rearm(uint64_t now)
{
	uint64_t at = next_tick;
	if (alarm_at && (!at || alarm_at < at)) at = alarm_at;
	if (at != armed_at) set_real(at, now);
}

static int watching(void)
{
	return !runq_empty() || __green_timers_pending() || __green_poll_waiters();
}

static void stop(void)
{
	next_tick = 0;
	__green_ticking = 0;
}

/* The next tick: in a quantum, or at the nearest deadline if sooner;
 * none when nothing is to be watched.  A deadline already past is being
 * dealt with (a no-preempt section's GREEN_LEAVE expires it, or the
 * scheduler is expiring it now): a tick for it would only interrupt that
 * work again and again, so the quantum stands. */
static void schedule(uint64_t now)
{
	uint64_t d = __green_timer_next();
	if (!watching()) {
		stop();
		return;
	}
	next_tick = now + quantum;
	if (d > now && d < next_tick) next_tick = d;
}

/* What a tick does for the waiting threads: wake those whose deadline
 * passed or whose descriptor is ready.  Inside a no-preempt section of
 * the library's own (the tick handler's, or GREEN_LEAVE's). */
hidden void __green_tick_check(void)
{
	/* Threads whose deadline passed go to the front of their level (a
	 * sleeper beside spinners runs at the next preemption, not after
	 * every spinner's slice).  Threads whose descriptor is ready go to
	 * the tail, as when the idle wait finds them: on a busy server the
	 * same connections are ready again at every tick, and front places
	 * for them let them overtake, tick after tick, every thread already
	 * runnable, which then never ran (docs/servers.md). */
	if (__green_timers_pending())
		__green_timers_expire(__green_now(), 1);
	__green_poll_check();
}

/* The running thread accepted a connection (src/sysio/dispatch.c): the
 * policy below lets it keep the CPU for a while this turn.  The turn is
 * the tick's own state, written here alone. */
hidden void __green_tick_accepted(void)
{
	accepted_turn = __green_nswitch + 1;
}

/* After the waiters were woken: does the running thread give up the CPU?
 * When its quantum is used and the policy lets a runnable thread have it,
 * or at once when a thread of a higher priority became runnable. */
hidden int __green_tick_slice_over(int used)
{
	unsigned long turn = __green_nswitch + 1;

	if (runq_empty()) return 0;
	if (__green_runq_higher(__green_cur)) return 1;
	if (!used || !__green_runq_should_preempt(__green_cur)) return 0;
	if (accepted_turn != turn) return 1;
	/* an acceptor keeps the CPU for a few quanta of CPU time (above) */
	if (keep_turn != turn) {
		keep_turn = turn;
		keep_from = __green_cpu_kernel_ns();
	}
	return __green_cpu_kernel_ns() - keep_from >= ACCEPT_QUANTA * quantum;
}

/* GREEN_PEND_SLICE's question, at the end of the outermost section: the
 * quantum the tick found used must be the running thread's.  A tick that
 * comes inside a section that then switches (a yield, a wait) found the
 * outgoing thread's quantum used; the thread switched in has a fresh
 * one, and yielding at its first section's end, before it did anything,
 * would put it behind threads it was ahead of. */
hidden int __green_tick_slice_pending_over(void)
{
	return slice_turn == __green_nswitch && __green_tick_slice_over(1);
}

static void tick(int sig, siginfo_t *si, void *uc)
{
	int e = errno, preempt = 0, alarm = 0;
	uint64_t now;

	if (si->si_code != SI_KERNEL) {
		/* kill() or sigqueue() of SIGALRM: the program's signal */
		__green_sig_generate(SIGALRM, si, uc);
		errno = e;
		return;
	}
	now = __green_real_now();
	armed_at = 0;                             /* a one-shot timer fired */
	if (alarm_at && now >= alarm_at) {
		alarm = 1;
		if (alarm_every)
			while (alarm_at <= now) alarm_at += alarm_every;
		else
			alarm_at = 0;
	}
	if (next_tick && now >= next_tick) {
		if (__green_idling) {
			/* the process idles in the kernel: its wait has the nearest
			 * deadline and every descriptor; ready threads re-arm */
			stop();
		} else {
			int used;
			if (__green_nswitch != seen_nswitch) {
				seen_nswitch = __green_nswitch;
				run_since = now;
			}
			/* a whole quantum used, and the policy allows it (SCHED_FIFO
			 * runs until a higher priority is runnable) */
			used = now - run_since >= quantum;
			if (__green_np || __green_cur->in_tick || __green_on_altstack()) {
				green_pending_set(GREEN_PEND_POLL);
				if (used) {
					slice_turn = __green_nswitch;
					green_pending_set(GREEN_PEND_SLICE);
				}
			} else {
				green_np_up();
				__green_tick_check();
				green_np_down();
				preempt = __green_tick_slice_over(used);
				if (preempt && !green_preempt_ok(uc)) {
					preempt = 0;
					next_tick = now + (quantum < RETRY_NS ? quantum : RETRY_NS);
					goto armed;
				}
			}
			schedule(now);
		}
	}
armed:
	rearm(now);
	if (alarm) {
		siginfo_t ai;
		memset(&ai, 0, sizeof ai);
		ai.si_signo = SIGALRM;
		ai.si_code = SI_KERNEL;
		__green_sig_generate(SIGALRM, &ai, uc);
		preempt = !__green_np && !__green_cur->in_tick && !__green_on_altstack() &&
		          green_preempt_ok(uc);   /* let the thread it is for run now */
	}
	if (preempt) {
		struct green_kset b = green_kset(1ULL << (SIGALRM - 1) | 1ULL << (SIGTRAP - 1));
		struct green_thread *self = __green_cur;
		/* in_tick first: a tick that expired meanwhile comes as soon as
		 * the unblock returns, and must not preempt again (see the top) */
		self->in_tick = 1;
		__syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &b, 0, _NSIG / 8);
		__green_yield();
		/* back: no tick again until the return restores the mask of
		 * the code it interrupted (one expired while others ran would
		 * come at the next kernel entry, here, and nest) */
		__syscall(SYS_rt_sigprocmask, SIG_BLOCK, &b, 0, _NSIG / 8);
		self->in_tick = 0;
	}
	__green_sig_fix_uc(uc, 0);   /* what was dispatched meanwhile is not held */
	errno = e;
}

hidden void __green_tick_arm(void)
{
	uint64_t now;
	if (!virtual || __green_ticking) return;
	__green_ticking = 1;
	now = __green_real_now();
	seen_nswitch = __green_nswitch;
	run_since = now;
	schedule(now);
	rearm(now);
}

/* The scheduler hands the CPU on: keep watching the waiters. */
hidden void __green_tick_watch(void)
{
	if (!__green_ticking && watching()) __green_tick_arm();
}

hidden int __green_itimer_armed(void)
{
	return alarm_at != 0;
}

/* Threads start: take over SIGALRM and the program's running alarm. */
hidden void __green_itimer_virtualise(void)
{
	struct itimerval it;
	struct sigaction sa = { .sa_sigaction = tick, .sa_flags = SA_SIGINFO | SA_RESTART };
	uint64_t now = __green_real_now();

	quantum = __green_config.quantum_us < 0 ? DEFAULT_QUANTUM_MS * 1000000ull
	          : __green_config.quantum_us * 1000ull;
	if (!green_k_getitimer(ITIMER_REAL, &it) && (it.it_value.tv_sec || it.it_value.tv_usec)) {
		alarm_at = now + it.it_value.tv_sec * 1000000000ull + it.it_value.tv_usec * 1000ull;
		alarm_every = it.it_interval.tv_sec * 1000000000ull + it.it_interval.tv_usec * 1000ull;
		armed_at = 1;   /* force a re-arm below */
	}
	__green_sigset(&sa.sa_mask, 1ULL << (SIGTRAP - 1));
	__libc_sigaction(SIGALRM, &sa, 0);
	virtual = 1;
	__green_ticking = !quantum;   /* cooperative only: never arm */
	rearm(now);
}

static void to_itimerval(struct itimerval *v, uint64_t at, uint64_t every, uint64_t now)
{
	uint64_t left = at > now ? at - now : (at ? 1000 : 0);
	v->it_value.tv_sec = left / 1000000000u;
	v->it_value.tv_usec = (left % 1000000000u + 999) / 1000;
	v->it_interval.tv_sec = every / 1000000000u;
	v->it_interval.tv_usec = every % 1000000000u / 1000;
}

hidden int __green_getitimer(struct itimerval *v)
{
	to_itimerval(v, alarm_at, alarm_every, __green_real_now());
	return 0;
}

hidden int __green_setitimer(const struct itimerval *nv, struct itimerval *ov)
{
	uint64_t now = __green_real_now();
	if (nv->it_value.tv_usec < 0 || nv->it_value.tv_usec >= 1000000 ||
	    nv->it_interval.tv_usec < 0 || nv->it_interval.tv_usec >= 1000000 ||
	    nv->it_value.tv_sec < 0 || nv->it_interval.tv_sec < 0)
		return -EINVAL;
	GREEN_ENTER();
	if (ov) to_itimerval(ov, alarm_at, alarm_every, now);
	alarm_every = nv->it_interval.tv_sec * 1000000000ull + nv->it_interval.tv_usec * 1000ull;
	alarm_at = nv->it_value.tv_sec || nv->it_value.tv_usec
	           ? now + nv->it_value.tv_sec * 1000000000ull + nv->it_value.tv_usec * 1000ull : 0;
	rearm(now);
	GREEN_LEAVE();
	return 0;
}

/* exec: hand the kernel the program's alarm, nothing of ours. */
hidden void __green_itimer_exec(int undo)
{
	struct itimerval it = { 0 };
	uint64_t now = __green_real_now();
	if (undo) {
		armed_at = 1;
		rearm(now);
		return;
	}
	to_itimerval(&it, alarm_at, alarm_every, now);
	green_k_setitimer(ITIMER_REAL, &it, 0);
}

hidden void __green_tick_after_fork(void)
{
	/* itimers are not inherited and alarms are cleared (POSIX) */
	alarm_at = alarm_every = 0;
	next_tick = 0;
	armed_at = 0;
	__green_ticking = !quantum;
}
