/*
 * tick.c — time slicing, and the program's virtual ITIMER_REAL.
 *
 * Design
 * ------
 * A tick is a SIGALRM from one of two clocks.
 *
 *   The CPU clock: a POSIX timer on the kernel thread's CPU time
 *   (CLOCK_THREAD_CPUTIME_ID), periodic, every quantum of CPU.  It does
 *   not advance while the process waits in the kernel, so an idle
 *   process takes no ticks and a busy one that idles now and then (a
 *   server) takes one per quantum of the CPU it uses: it is never
 *   disarmed when the process idles nor armed again when it wakes, which
 *   would cost a system call at every change (the kernel checks it at
 *   its own clock tick, 4 ms here: coarse, but it only has to notice).
 *
 *   The real clock: setitimer(ITIMER_REAL), which also carries the
 *   program's own alarm()/ualarm()/setitimer(ITIMER_REAL), virtual once
 *   threads exist, so that the program's SIGALRM comes at its time.
 *
 * Two modes.  Coarse: only the CPU clock ticks (the real timer carries
 * the program's alarm alone).  A CPU tick that finds the process has not
 * idled since the tick before (the idle wait counts its rounds,
 * __green_idles) and a thread computing (computing_seen: the same thread
 * ran since the tick before, or a tick preempted the running thread or
 * the one at the run queue's tail and it has not waited since) goes
 * fine.  Fine: the real timer is periodic, every fine period, and is
 * also set for the nearest deadline of a waiting thread; a real tick
 * that finds the process idled since the tick before, or nobody
 * computing (threads that switch by themselves between short turns: an
 * I/O-bound server that never idles), goes coarse again.  So the real
 * timer is set twice per stretch of computing, and not at all while the
 * process alternates between short work and waits.  Where the kernel has no
 * CPU-clock timer (timer_create fails), the real timer does both jobs,
 * periodic while threads are to be watched, stopped by a tick that finds
 * the process idle.
 *
 * The fine period is the minimum granularity while threads wait on
 * descriptors (their readiness is looked at every tick: the latency of a
 * thread a descriptor wakes beside computing ones), else the slice.
 * Under valgrind the granularity is the quantum (see where it is set).
 *
 * The slice: like Linux's, a target latency divided among the threads
 * that can run (the running one and the run queue's), never below the
 * minimum granularity, never above the quantum, GREEN_QUANTUM_MS, which
 * keeps its meaning as the longest a thread runs while others wait
 * (slice_ns below; docs/preemption.md gives the figures).  A thread is
 * preempted when it has run a slice in its turn (the tick notes when it
 * first saw it running, run_since); it goes to the tail, marked
 * computing.
 *
 * Wake-up preemption: a thread that slept — woken by its descriptor at a
 * tick or by the idle wait, by its deadline, by a signal — queues ahead
 * of the computing ones (runq.h's sleeper place; a deadline's or a
 * signal's, at the very front), and the tick preempts a thread that has
 * run a minimum granularity in its turn when the run queue's head is
 * such a sleeper: it goes back first among the computing ones.  A thread
 * made runnable by a signal brings the next tick within a granularity
 * (__green_tick_soon).  So a thread woken by I/O, a signal or a timer
 * runs within a granularity or two of its event whatever the number of
 * computing threads, once the process is in fine mode; in coarse mode,
 * as soon as the thread that runs waits, or within a quantum of CPU (the
 * first CPU tick of a busy stretch).  The computing ones are not
 * starved: the first of them lets RUNQ_PASSES sleepers ahead before
 * sleepers queue behind it too (runq.h).  A SCHED_OTHER thread another
 * thread woke (an unlock, a signal of a condition, a post) goes to the
 * run queue's front (runq.c), and so the same test preempts for it: it
 * runs when the waker's turn ends, the tick ending that turn as for a
 * thread that slept on a descriptor.
 *
 * At each tick that finds the process busy, the expired deadlines wake
 * their threads, and the I/O backend is polled without blocking
 * (__green_poll_check) unless the multiplexer made a round since the
 * tick before (a round is as good, and the poll a system call).
 *
 * Inside a no-preempt section the tick only records GREEN_PEND_POLL
 * (and GREEN_PEND_SLICE when the slice is used) and the outermost
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
 *   SIGALRM ──> the program's (kill, its own timer)? ──> its signal
 *     │ ours (the CPU clock's timer, or the real timer)
 *     v
 *   idled since the last tick? ──yes──> coarse (the idle wait watches)
 *     │no
 *     v
 *   a thread computes? ──yes──> fine (a CPU tick, if coarse)
 *     │no: threads switch by themselves
 *     v
 *   coarse (a real tick, if fine)
 *   np > 0 ? ──yes──> pending |= POLL (| SLICE); return
 *     │no
 *     v
 *   expire deadlines, poll descriptors (wakes waiters)
 *   program alarm due? ──> dispatch virtual SIGALRM
 *   slice used, or a sleeper waits and a granularity used?
 *     ──> unblock SIGALRM+SIGTRAP, yield (to the tail, or first of the computing)
 *
 * In the glibc overlay the libc is a separate object whose internal locks
 * belong to the one kernel thread, so a tick whose interrupted pc is not
 * in the program (green_preempt_ok, the libc seam) does not switch: it
 * comes back after RETRY_NS, by when the thread has usually left the
 * libc.  In musl every pc is the program's.
 *
 * A thread that accepted a connection in its turn on the CPU is not
 * preempted at the end of its slice: it keeps the CPU until it has used
 * ACCEPT_QUANTA quanta more of CPU time in that turn, then joins the
 * tail.  A server's acceptor whose listen queue is never empty never
 * waits, so the tick preempts it; behind it in the run queue is every
 * worker with a request, one more for each connection it accepted, and
 * with thousands of connections it would get one slice per cycle of
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
 *   tick, slice used, same priority runnable:
 *     accepted this turn? ──no──> preempt
 *       │yes
 *       v
 *     first time this turn? ──> keep_from = CPU clock now
 *     CPU clock - keep_from < ACCEPT_QUANTA quanta? ──yes──> keep running
 *       │no
 *       v
 *     preempt (to the tail; the next turn starts from nothing)
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
#include "base/valgrind-glue.h"

#define DEFAULT_QUANTUM_MS 10
#define LATENCY_NS 6000000ull    /* the target latency divided among runnable threads */
#define GRAN_NS 750000ull        /* the minimum granularity (both Linux's on one CPU) */
#define RETRY_NS 1000000ull      /* a tick that found the thread in the libc */
#define PERIODIC_MIN_NS 200000ull  /* shorter fine periods: one-shot, set at each tick */
#define ACCEPT_QUANTA 8          /* quanta of CPU time more for a thread accepting */

hidden int __green_ticking;
hidden unsigned long __green_nswitch;

static uint64_t quantum;              /* ns; 0 = cooperative only */
static uint64_t gran;                 /* the minimum granularity: GRAN_NS, at most the quantum */
static int fine;                      /* the real clock ticks too */
static int slow_tick;                 /* the last fine tick's work took a good part of the period */
static int cpu_id = -1;               /* the CPU clock's timer, as the kernel names it */
static uint64_t fine_next;            /* the next fine tick, 0 = none */
static uint64_t fine_every;           /* its period */
static unsigned long seen_nswitch;   /* __green_nswitch at the last tick */
static unsigned long seen_idles;     /* __green_idles at the last tick */
static unsigned long seen_rounds;    /* __green_io_rounds at the last tick */
static uint64_t run_since;            /* when a tick first saw the current thread run */
static uint64_t alarm_at, alarm_every; /* the program's virtual ITIMER_REAL */
static uint64_t armed_at, armed_every; /* what the real timer is set to */
static int virtual;
static unsigned long accepted_turn;   /* __green_nswitch + 1 at the last accept */
static unsigned long slice_turn;      /* __green_nswitch when GREEN_PEND_SLICE was last set */
static unsigned long keep_turn;       /* the turn the acceptor's keep started in, + 1 */
static uint64_t keep_from;            /* the kernel's CPU clock then */

/* The slice of a thread among n that can run (itself included). */
static uint64_t slice_ns(unsigned long n)
{
	uint64_t s = n > 1 ? LATENCY_NS / n : quantum;
	if (s < gran) s = gran;
	return s < quantum ? s : quantum;
}

static uint64_t slice_now(void)
{
	return slice_ns(__green_runq.n + 1);
}

/* ---- the real timer */

static void set_real(uint64_t at, uint64_t every, uint64_t now)
{
	struct itimerval it = { 0 };
	if (at) {
		uint64_t d = at > now ? at - now : 1000;
		it.it_value.tv_sec = d / 1000000000u;
		it.it_value.tv_usec = (d % 1000000000u + 999) / 1000;
		if (!it.it_value.tv_sec && !it.it_value.tv_usec) it.it_value.tv_usec = 1;
		it.it_interval.tv_sec = every / 1000000000u;
		it.it_interval.tv_usec = every % 1000000000u / 1000;
	}
	if (at || armed_at) green_k_setitimer(ITIMER_REAL, &it, 0);
	armed_at = at;
	armed_every = at ? every : 0;
}

/* The real timer fired: where it is now (a periodic one went on). */
static void real_fired(uint64_t now)
{
	if (!armed_every) {
		armed_at = 0;
		return;
	}
	while (armed_at <= now) armed_at += armed_every;
}

/* Set the real timer to the earliest of its masters: the program's
 * alarm, the next fine tick, the nearest deadline while fine.  Periodic
 * at the fine period while fine, so that a fine tick makes no system
 * call to set the next.  Below PERIODIC_MIN_NS one-shot, set again at
 * each tick: a periodic timer as short as a tick's own work (tens of
 * microseconds, copied stacks) fires again before the preempted threads
 * ran at all.  So is a fine tick whose own work took a quarter of the
 * period or more (slow_tick: under valgrind, or on a machine that took
 * the CPU away in the middle of it): the next comes a period after its
 * end, so that the thread it interrupted runs between the two. */
static void rearm(uint64_t now)
{
	uint64_t at = 0, every = 0, d;

	if (fine_next) {
		at = fine_next;
		every = fine_every >= PERIODIC_MIN_NS && !slow_tick ? fine_every : 0;
		if ((d = __green_timer_next()) > now && d < at) at = d;
	}
	if (alarm_at && (!at || alarm_at < at)) at = alarm_at;
	if (at == armed_at && every == armed_every) return;   /* as it is set */
	set_real(at, every, now);
}

/* ---- the CPU clock's timer */

static void cpu_create(void)
{
	/* the value tells its SIGALRM from a timer of the program's: the
	 * kernel's timer id in the siginfo is not the id an emulator (qemu)
	 * hands the program, the value is */
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM,
	                        .sigev_value.sival_ptr = &cpu_id };
	int id;

	if (__syscall(SYS_timer_create, CLOCK_THREAD_CPUTIME_ID, &sev, &id) == 0) cpu_id = id;
}

static void cpu_set(uint64_t every)
{
	if (cpu_id >= 0 && green_k_timer_settime(cpu_id, every, every)) cpu_id = -1;
}

/* ---- what to watch */

static int watching(void)
{
	return !runq_empty() || __green_timers_pending() || __green_poll_waiters();
}

/* The fine ticks' period: the granularity while threads wait on
 * descriptors, else the slice. */
static uint64_t fine_period(void)
{
	return __green_poll_waiters() ? gran : slice_now();
}

static void go_fine(uint64_t now)
{
	fine = 1;
	fine_every = fine_period();
	fine_next = now + fine_every;
}

static void go_coarse(void)
{
	fine = 0;
	fine_next = 0;
}

static void stop(void)
{
	go_coarse();
	if (__green_ticking && cpu_id >= 0) cpu_set(0);
	__green_ticking = 0;
}

/* ---- the tick's work */

/* What a tick does for the waiting threads: wake those whose deadline
 * passed or whose descriptor is ready; how many it made runnable.
 * Inside a no-preempt section of the library's own (the tick handler's,
 * or GREEN_LEAVE's). */
hidden int __green_tick_check(void)
{
	unsigned long n = __green_runq.n;

	/* Threads whose deadline passed go to the front of their level (a
	 * sleeper beside spinners runs at the next preemption, not after
	 * every spinner's slice).  Threads whose descriptor is ready go
	 * where threads that slept go, ahead of the computing ones and
	 * behind every other (runq.h): on a busy server the same
	 * connections are ready again at every tick, and front places for
	 * them let them overtake, tick after tick, every thread already
	 * runnable, which then never ran (docs/servers.md).  The poll is
	 * spared when the multiplexer made a round since the last tick. */
	if (__green_timers_pending())
		__green_timers_expire(__green_now(), 1);
	if (__green_io_rounds == seen_rounds) __green_poll_check();
	seen_rounds = __green_io_rounds;
	return __green_runq.n > n;
}

/* The running thread accepted a connection (src/sysio/dispatch.c): the
 * policy below lets it keep the CPU for a while this turn.  The turn is
 * the tick's own state, written here alone. */
hidden void __green_tick_accepted(void)
{
	accepted_turn = __green_nswitch + 1;
}

/* After the waiters were woken, the running thread having run `ran` ns
 * in its turn: does it give up the CPU?  0: no; GREEN_PREEMPT_TAIL: its
 * slice is used, to the tail; GREEN_PREEMPT_KEEP: a thread that slept
 * waits at the run queue's head, and it has run a granularity: first
 * among the computing ones.  A thread of a higher priority runnable:
 * at once (GREEN_PREEMPT_TAIL, __green_yield's way). */
hidden int __green_tick_slice_over(uint64_t ran)
{
	unsigned long turn = __green_nswitch + 1;
	struct green_thread *self = __green_cur, *h;

	if (runq_empty()) return 0;
	if (__green_runq_higher(self)) return GREEN_PREEMPT_HIGHER;
	if (!__green_runq_should_preempt(self)) return 0;
	if (ran < slice_now()) {
		/* wake-up preemption: a thread that slept waits at the head,
		 * and this one computes (a tick preempted it before) or has
		 * had a granularity */
		h = __green_runq.lv[green_level(self)].head;
		return h && !h->computing && (self->computing || ran >= gran) ? GREEN_PREEMPT_KEEP : 0;
	}
	if (accepted_turn != turn) return GREEN_PREEMPT_TAIL;
	/* an acceptor keeps the CPU for a few quanta of CPU time (above) */
	if (keep_turn != turn) {
		keep_turn = turn;
		keep_from = __green_cpu_kernel_ns();
	}
	return __green_cpu_kernel_ns() - keep_from >= ACCEPT_QUANTA * quantum ? GREEN_PREEMPT_TAIL : 0;
}

/* A tick's question, deferred to the end of the outermost section
 * (preempt.c): slice, the tick found the slice used (GREEN_PEND_SLICE);
 * else, after the deferred check woke threads, may a sleeper preempt?
 * The slice found used must be the running thread's: a tick that comes
 * inside a section that then switches (a yield, a wait) found the
 * outgoing thread's slice used; the thread switched in has a fresh one,
 * and yielding at its first section's end, before it did anything, would
 * put it behind threads it was ahead of. */
hidden int __green_tick_deferred(int slice)
{
	int how;

	if (!quantum || __green_nswitch != seen_nswitch) return 0;
	if (slice && slice_turn == __green_nswitch) return __green_tick_slice_over(quantum);
	how = __green_tick_slice_over(__green_real_now() - run_since);
	return how == GREEN_PREEMPT_TAIL ? 0 : how;   /* its slice is the next tick's to find used */
}

/* A signal made a thread runnable (deliver.c): the next tick within a
 * granularity, to preempt a thread that computes (wake-up preemption). */
hidden void __green_tick_soon(void)
{
	uint64_t now;

	if (!virtual || !quantum || !__green_ticking || __green_idling) return;
	now = __green_real_now();
	if (!fine) go_fine(now);
	if (fine_next > now + gran) fine_next = now + gran;
	rearm(now);
}

/* Does a thread compute, at a tick that found the process busy: the
 * running one ran since the tick before without a switch, or a tick
 * preempted it and it has not waited since, or such a thread waits for
 * the CPU at the tail of its level?  Else the threads switch by
 * themselves, short turns between waits (an I/O-bound server that never
 * idles): coarse ticks do, a CPU tick per quantum. */
static int computing_seen(void)
{
	struct green_thread *self = __green_cur, *t;

	if (__green_nswitch == seen_nswitch || self->computing) return 1;
	t = __green_runq.lv[green_level(self)].tail;
	return t && t->computing;
}

/* A tick that found the process busy: its work, or the request for it
 * when the running thread is in a section.  0, or how to preempt. */
static int busy_tick(uint64_t now, void *uc)
{
	int how;

	if (__green_nswitch != seen_nswitch) {
		seen_nswitch = __green_nswitch;
		run_since = now;
	}
	if (__green_np || __green_cur->in_tick || __green_on_altstack()) {
		green_pending_set(GREEN_PEND_POLL);
		if (now - run_since >= slice_now()) {
			slice_turn = __green_nswitch;
			green_pending_set(GREEN_PEND_SLICE);
		}
		return 0;
	}
	green_np_up();
	__green_tick_check();
	green_np_down();
	how = __green_tick_slice_over(now - run_since);
	if (how && !green_preempt_ok(uc)) {
		how = 0;
		if (fine_next > now + RETRY_NS) fine_next = now + RETRY_NS;
	}
	return how;
}

static void tick(int sig, siginfo_t *si, void *uc)
{
	int e = errno, preempt = 0, alarm = 0, cpu = 0;
	uint64_t now;

	(void)sig;
	if (si->si_code == SI_TIMER && si->si_value.sival_ptr == &cpu_id) {
		cpu = 1;
	} else if (si->si_code != SI_KERNEL) {
		/* kill(), sigqueue() or a timer of the program's: its signal */
		__green_sig_generate(SIGALRM, si, uc);
		errno = e;
		return;
	}
	now = __green_real_now();
	if (!cpu) real_fired(now);
	if (alarm_at && now >= alarm_at) {
		alarm = 1;
		if (alarm_every)
			while (alarm_at <= now) alarm_at += alarm_every;
		else
			alarm_at = 0;
	}
	if (__green_ticking && (cpu || fine)) {
		if (__green_idling || __green_idles != seen_idles) {
			/* the process idled since the last tick: nobody computes
			 * for long, and its wait has the nearest deadline and every
			 * descriptor; without a CPU clock, the timer stops */
			seen_idles = __green_idles;
			go_coarse();
			if (cpu_id < 0) stop();
		} else {
			int computes = computing_seen();
			if (!fine && computes) go_fine(now);
			else if (fine && !computes && cpu_id >= 0) go_coarse();
			preempt = busy_tick(now, uc);
			if (!watching()) {
				stop();
			} else if (fine && !cpu) {
				/* the next fine tick: the periodic timer's, unless the
				 * period changed */
				uint64_t p = fine_period(), end = __green_real_now();
				if ((slow_tick = end - now >= p / 4)) {
					fine_every = p;
					fine_next = end + p;
				} else if (p == armed_every && armed_at > now) {
					fine_next = armed_at;
				} else {
					fine_every = p;
					fine_next = now + p;
				}
			}
		}
	}
	rearm(now);
	if (alarm) {
		siginfo_t ai;
		memset(&ai, 0, sizeof ai);
		ai.si_signo = SIGALRM;
		ai.si_code = SI_KERNEL;
		__green_sig_generate(SIGALRM, &ai, uc);
		if (!preempt && !__green_np && !__green_cur->in_tick && !__green_on_altstack() &&
		    green_preempt_ok(uc))
			preempt = GREEN_PREEMPT_KEEP;   /* let the thread it is for run now */
	}
	if (preempt) {
		struct green_kset b = green_kset(1ULL << (SIGALRM - 1) | 1ULL << (SIGTRAP - 1));
		struct green_thread *self = __green_cur;
		/* in_tick first: a tick that expired meanwhile comes as soon as
		 * the unblock returns, and must not preempt again (see the top) */
		self->in_tick = 1;
		__syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &b, 0, _NSIG / 8);
		/* the next thread's turn starts now (the switch below counts one) */
		seen_nswitch = __green_nswitch + 1;
		run_since = now;
		__green_preempt_yield(preempt);
		/* back: no tick again until the return restores the mask of
		 * the code it interrupted (one expired while others ran would
		 * come at the next kernel entry, here, and nest) */
		__syscall(SYS_rt_sigprocmask, SIG_BLOCK, &b, 0, _NSIG / 8);
		self->in_tick = 0;
	}
	__green_sig_fix_uc(uc, 0);   /* what was dispatched meanwhile is not held */
	errno = e;
}

/* Two threads may run, or threads wait: tick.  The CPU clock's timer
 * runs from here until nothing is to be watched; without one, the real
 * timer ticks (fine from the start). */
hidden void __green_tick_arm(void)
{
	uint64_t now;
	if (!virtual || __green_ticking) return;
	__green_ticking = 1;
	now = __green_real_now();
	seen_nswitch = __green_nswitch;
	seen_idles = __green_idles;
	run_since = now;
	if (cpu_id >= 0) {
		cpu_set(quantum);
		if (cpu_id >= 0) return;
	}
	go_fine(now);
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
	gran = quantum < GRAN_NS ? quantum : GRAN_NS;
	/* Under valgrind the tool checks a system call's buffers before
	 * the call, and a tick that comes during the check restarts the
	 * call, check included: a write of a megabyte to a pipe takes longer
	 * to check than a granularity, and it was begun again for seconds
	 * before a check fitted between two ticks.  There, the fine ticks
	 * come a quantum apart. */
	if (GREEN_ON_VALGRIND()) gran = quantum;
	if (!green_k_getitimer(ITIMER_REAL, &it) && (it.it_value.tv_sec || it.it_value.tv_usec)) {
		alarm_at = now + it.it_value.tv_sec * 1000000000ull + it.it_value.tv_usec * 1000ull;
		alarm_every = it.it_interval.tv_sec * 1000000000ull + it.it_interval.tv_usec * 1000ull;
		armed_at = 1;   /* force a re-arm below */
	}
	__green_sigset(&sa.sa_mask, 1ULL << (SIGTRAP - 1));
	__libc_sigaction(SIGALRM, &sa, 0);
	virtual = 1;
	if (quantum) cpu_create();
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
		armed_every = 0;
		rearm(now);
		if (quantum) cpu_create();
		if (cpu_id >= 0 && __green_ticking) cpu_set(quantum);
		return;
	}
	/* the CPU clock's timer goes, with a signal of it still pending,
	 * which exec would hand the new image (killed by SIGALRM: seen under
	 * qemu-user, whose exec is slow); the exec makes it again if it fails */
	if (cpu_id >= 0) __syscall(SYS_timer_delete, cpu_id);
	cpu_id = -1;
	to_itimerval(&it, alarm_at, alarm_every, now);
	green_k_setitimer(ITIMER_REAL, &it, 0);
}

hidden void __green_tick_after_fork(void)
{
	/* itimers and POSIX timers are not inherited and alarms are
	 * cleared (POSIX) */
	alarm_at = alarm_every = 0;
	go_coarse();
	armed_at = armed_every = 0;
	cpu_id = -1;
	if (quantum) cpu_create();
	__green_ticking = !quantum;
}
