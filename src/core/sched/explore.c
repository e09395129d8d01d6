/*
 * explore.c — seeded schedules (GREEN_SCHED): find concurrency bugs and
 * replay them exactly.
 *
 * Design
 * ------
 * Every green thread runs on one kernel thread and every hand-off is
 * decided by green, so once the two sources of outside timing are gone —
 * the SIGALRM tick and the real clock behind deadlines — the interleaving
 * of a program is a pure function of its input and of the choices made
 * here.  With GREEN_SCHED set the tick is off (config.c forces a quantum
 * of 0), deadlines run on a virtual clock (below), and every choice of the
 * next thread comes from a PRNG seeded by the user:
 *
 *   random:SEED          at each scheduling point, pick uniformly among
 *                        the running thread and the runnable threads of
 *                        the top priority level; at the fine-grained
 *                        points of --sched-points code, first switch at
 *                        all with probability 1/FINE_ODDS.
 *   pct:SEED[:D[:K]]     PCT (Burckhardt et al., ASPLOS 2010): each thread
 *                        gets a random priority when first seen, the
 *                        highest-priority runnable thread always runs,
 *                        and at D-1 steps drawn uniformly from [1, K] the
 *                        running thread drops to priority 1..D-1, below
 *                        every fresh one.  A bug of depth d <= D is then hit
 *                        with probability >= 1/(n K^(d-1)).  K defaults to
 *                        DEFAULT_K; green-explore measures it with one
 *                        calibration run and passes it.  A thread that
 *                        spins drops below every other thread (below:
 *                        PCT assumes no busy waiting).
 *   pos:SEED             POS, partial order sampling (Yuan et al., CAV
 *                        2018): every event gets a fresh random priority,
 *                        the highest-priority one runs, and the events
 *                        that conflict with the one that ran draw again
 *                        (pos.c).
 *
 * Scheduling points (each one a "step"): every outermost GREEN_LEAVE — so
 * every mutex, condition, rwlock, semaphore, barrier, spin, once, create,
 * join, key and I/O operation of the library, all of which run inside a
 * no-preempt section — every pick of the next thread when one blocks,
 * sleeps or exits (sched.c), sched_yield, and, in code compiled with
 * `green-cc --sched-points`, every basic block (__sanitizer_cov_trace_pc).
 * Who gets woken by an unlock or a signal stays the wait queue's order;
 * the choice is who runs next.
 *
 * Time.  __green_now() is the virtual clock: it starts at VCLOCK_START,
 * advances STEP_NS per step, and when every thread is blocked and none
 * waits on the kernel (a descriptor, a child, a signal) it jumps to the
 * nearest deadline instead of sleeping: a sleeping test runs at once, and
 * sleeps end in the order of their deadlines (ties: the heap's order,
 * itself fixed by the schedule).  While a thread waits on the kernel, the
 * idle wait is real and the virtual clock advances by the real time it
 * took.  The program reads the same clock (__green_vclock_read):
 * clock_gettime of the monotonic and wall clocks, gettimeofday, time and
 * timespec_get answer virtual values, the wall clock starting at
 * VREALTIME_START, so a program that loops on the clock replays exactly;
 * a read moves the clock a step on, so a loop that polls it without
 * sleeping ends.  Deadlines on either clock are exact.  The CPU-time
 * clocks, alarm and setitimer stay real.
 *
 * Spinning.  A thread that says "I am waiting for someone else" —
 * sched_yield, a sleep of zero or a few steps, a failed trylock of a
 * mutex, rwlock, spin lock or semaphore — is, under PCT, demoted below
 * every other thread (the latest lowest), so that a spinner of high
 * priority cannot starve the thread it waits for; each of those calls is
 * a scheduling point in both modes.  pthread_spin_lock itself does not
 * spin: it waits as a mutex does.  A loop that calls nothing is seen in
 * --sched-points code only: FINE_SPIN fine points in a row by one thread
 * without a library point count as a yield too (and the last of them
 * switches as a full point would), and with --sched-points=memory a run
 * of accesses that only poll (src/mempoints/shared.c).
 *
 * Replay check.  Each decision (the id of the thread chosen, the running
 * one included) is folded into a 64-bit FNV-1a hash; at every ending —
 * exit and _exit (members/_Exit.c), abort, the deadlock report, a fault (separate.c), a signal whose
 * default action kills (deliver.c's die: under GREEN_SCHED the catcher
 * takes every such signal once threads exist, so green-explore's SIGXCPU
 * at a timeout reports too) — green prints the setting, the number of
 * steps and the hash, once, so two runs can be compared.
 *
 * All state here is touched by the running thread only, inside a
 * no-preempt section or where no switch can happen.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "idlewait.h"
#include "signal/gsignal.h"
#include "base/report.h"
#include "base/gconfig.h"
#include "sched/runq.h"
#include "sched/pos.h"

#define DEFAULT_DEPTH 3
#define DEFAULT_K 1000
#define MAX_DEPTH 10
#define FINE_ODDS 32                     /* a fine point switches 1 time in 32 */
#define STEP_NS 1000ull                  /* virtual time per step */
#define TINY_SLEEP_NS (10 * STEP_NS)     /* a sleep this short is a yield */
#define FINE_SPIN 100000                 /* fine points in a row: a spin */
#define VCLOCK_START 1000000000ull
#define VREALTIME_START 1735689600000000000ull  /* 2025-01-01 00:00:00 UTC */
#define TAI_OFFSET 37000000000ull        /* TAI - UTC since 2017 */
#define PCT_BAND (1ull << 62)            /* fresh priorities are above it */
#define LOW_BAND (1ull << 61)            /* change point i: LOW_BAND + i; yielders below */

hidden uint64_t __green_vclock = VCLOCK_START;
hidden uintptr_t __green_explore_access;    /* POS: the access of the point being made */
hidden int __green_mp_accessed;             /* a memory access since the last block point */

hidden int __green_xmode;
static uint64_t rng[4];
static uint64_t hash = 0xcbf29ce484222325ull;
static uint64_t steps;
static uint64_t change_at[MAX_DEPTH];   /* step of priority change i+1 */
static int nchange;
static uint64_t demoted;
static int reported;
static unsigned fine_tid;                /* the thread of the current run of fine points */
static uint64_t fine_run;

/* ---- the generator: xoshiro256** seeded through splitmix64 */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t next(void)
{
	uint64_t r = rotl(rng[1] * 5, 7) * 9, t = rng[1] << 17;
	rng[2] ^= rng[0];
	rng[3] ^= rng[1];
	rng[1] ^= rng[2];
	rng[0] ^= rng[3];
	rng[2] ^= t;
	rng[3] = rotl(rng[3], 45);
	return r;
}

static uint64_t below(uint64_t n)
{
	return next() % n;   /* the bias for small n is far below 2^-50 */
}

/* A fresh priority, above every demoted one (PCT's first sight of a
 * thread, POS's every event). */
hidden uint64_t __green_explore_fresh(void)
{
	return PCT_BAND + (next() >> 2) + 1;
}

hidden void __green_explore_init(void)
{
	const struct green_config *c = &__green_config;
	uint64_t x = c->sched_seed;

	for (int i = 0; i < 4; i++) rng[i] = splitmix64(&x);
	__green_xmode = c->sched_mode;
	__green_yield_gate.flag[GREEN_GATE_EXPLORE] = __green_xmode != 0;   /* every yield a point */
	if (__green_xmode) green_pending_set(GREEN_PEND_EXPLORE);   /* every GREEN_LEAVE a point */
	if (__green_xmode != GREEN_SCHED_PCT) return;
	nchange = (c->sched_depth ? c->sched_depth : DEFAULT_DEPTH) - 1;
	for (int i = 0; i < nchange; i++)
		change_at[i] = 1 + below(c->sched_steps ? c->sched_steps : DEFAULT_K);
}

static void decided(const struct green_thread *t)
{
	hash = (hash ^ t->id) * 0x100000001b3ull;
}

static uint64_t prio(struct green_thread *t)
{
	if (!t->xprio) {
		t->xprio = __green_explore_fresh();
		t->xevent = 0;   /* not zeroed at creation: valid with xprio (gthread.h) */
	}
	return t->xprio;
}

/* One step: the clock moves, PCT's change points act on the running
 * thread, and descriptor waiters whose event happened are woken (there is
 * no tick to do it; the order is poll.c's, so it is reproducible). */
static void step(void)
{
	struct green_thread *self = __green_cur;

	steps++;
	__green_vclock += STEP_NS;
	for (int i = 0; i < nchange; i++)
		if (change_at[i] == steps && self->state == GS_RUNNING)
			self->xprio = LOW_BAND + i + 1;
	if (__green_poll_waiters()) {
		green_np_up();   /* its own GREEN_LEAVE must not be a point */
		__green_poll_check();
		green_np_down();
	}
}

/*
 * The scheduler's choice of the next thread: take it off the top level of
 * the run queue (which holds the current thread too when it yields).
 * Inside a no-preempt section; the run queue is not empty.
 */
hidden struct green_thread *__green_explore_pick(void)
{
	int l;
	struct gq *q;
	struct green_thread *t, *best;
	uint64_t n = 0;

	step();
	if ((l = runq_top()) < 0) return 0;
	q = &__green_runq.lv[l];
	best = q->head;
	if (__green_xmode != GREEN_SCHED_RANDOM) {   /* PCT, POS: the highest priority */
		for (t = q->head; t; t = t->q_next)
			if (prio(t) > prio(best) || (t->xprio == best->xprio && t->id < best->id))
				best = t;
		if (__green_xmode == GREEN_SCHED_POS) __green_pos_ran(q, best);
	} else {
		for (t = q->head; t; t = t->q_next) n++;
		if (n > 1)
			for (n = below(n); n--; ) best = best->q_next;
	}
	runq_remove(best);
	decided(best);
	return best;
}

/* A scheduling point in the running thread (GREEN_LEAVE, sched_yield, a
 * basic block of --sched-points code): maybe hand the CPU on.  With the
 * running thread alone, nothing to choose: only the step counts. */
hidden void __green_explore_point(int fine)
{
	struct green_thread *self = __green_cur;

	if (__green_np || self->state != GS_RUNNING || !green_active()) return;
	if (__green_xmode == GREEN_SCHED_POS && !__green_pos_point(self, fine)) {
		steps++;   /* a block point inside one POS event */
		__green_vclock += STEP_NS;
		return;
	}
	if (!fine || fine_tid != self->id) {
		fine_tid = self->id;
		fine_run = 0;
	} else if (++fine_run == FINE_SPIN) {
		/* FINE_SPIN basic blocks or shared accesses and no library
		 * call: a call-free spin loop (or a long computation, which
		 * loses nothing by letting the others run): as sched_yield */
		fine_run = 0;
		__green_explore_yielded();
		fine = 0;
	}
	if (fine && __green_xmode == GREEN_SCHED_RANDOM && below(FINE_ODDS)) {
		steps++;
		__green_vclock += STEP_NS;
		return;
	}
	step();   /* the clock moves even for a thread alone that polls a deadline */
	if (runq_empty() && !__green_timers_pending()) {
		decided(self);
		return;
	}
	__green_yield();   /* expires deadlines, picks through __green_explore_pick */
}

/* A point at an access of --sched-points=memory code to shared memory
 * (src/mempoints/shared.c): POS must know what the event does. */
hidden void __green_explore_access_point(const volatile void *addr, int write)
{
	__green_explore_access = ((uintptr_t)addr >> 3) << 1 | (write != 0) | (uintptr_t)1 << 63;
	__green_explore_point(1);
	__green_explore_access = 0;
}

/* sched_yield under PCT: below every other thread, the latest yielder
 * lowest, so that a spinner lets the thread it waits for run. */
hidden void __green_explore_yielded(void)
{
	if (__green_xmode == GREEN_SCHED_RANDOM) return;
	__green_cur->xprio = LOW_BAND - ++demoted;
	if (__green_xmode == GREEN_SCHED_POS) __green_pos_yielded(__green_cur);
}

/* A sleep that ends at once or within a few steps (sleep(0), usleep(1),
 * nanosleep of zero: the back-off of a spin loop) says "I am waiting
 * for someone else" as sched_yield does: under PCT the sleeper drops
 * below every other thread, or a spinner of high priority that polls a
 * lock held by a thread of lower priority would run alone for ever (its
 * sleep expires before any other thread is picked). */
hidden void __green_explore_sleep(uint64_t deadline)
{
	if (deadline <= __green_vclock + TINY_SLEEP_NS) __green_explore_yielded();
}

/* ---- the virtual clock */

/* Could something outside the process end a wait: a descriptor, a child,
 * a polled lock or queue of another process, or a signal handler? */
static int kernel_may_wake(void)
{
	struct green_thread *t;
	if (__green_poll_waiters() || __green_sig_wakeable()) return 1;
	for (t = __green_all; t; t = t->all_next)
		if (t->state == GS_BLOCKED && (t->wait == GW_RETRY || t->wait == GW_CHILD ||
		                               t->wait == GW_SIGNAL))
			return 1;
	return 0;
}

/* Everybody is blocked: jump to the deadline instead of sleeping, unless
 * something outside could wake a thread first (then the caller sleeps for
 * real, and __green_vclock_idled moves the clock). */
hidden int __green_vclock_jump(uint64_t deadline)
{
	if (deadline == GREEN_NO_DEADLINE || kernel_may_wake()) return 0;
	if (deadline > __green_vclock) __green_vclock = deadline;
	return 1;
}

/* A real idle wait that began at real time t0 ended: the virtual clock
 * moves as much, but not past the deadline it waited for, so a wait that
 * overslept in the kernel still expires only the nearest deadline. */
hidden void __green_vclock_idled(uint64_t deadline, uint64_t t0)
{
	uint64_t d = __green_real_now() - t0;
	if (deadline != GREEN_NO_DEADLINE && deadline > __green_vclock && __green_vclock + d > deadline)
		__green_vclock = deadline;
	else
		__green_vclock += d;
}

/* The program's clocks under GREEN_SCHED (clock_gettime, gettimeofday,
 * time, timespec_get): the monotonic family reads the virtual clock, the
 * wall-clock family VREALTIME_START plus the virtual time elapsed, so a
 * seed fixes every value a program reads.  Each read moves the clock on
 * by a step's worth, so that a loop that polls the clock without
 * sleeping ends.  0 for the clocks that stay real (CPU time). */
hidden int __green_vclock_read(clockid_t clk, uint64_t *ns)
{
	uint64_t base;
	switch (clk) {
	case CLOCK_MONOTONIC: case CLOCK_MONOTONIC_RAW: case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME: case CLOCK_BOOTTIME_ALARM:
		base = 0;
		break;
	case CLOCK_REALTIME: case CLOCK_REALTIME_COARSE: case CLOCK_REALTIME_ALARM:
		base = VREALTIME_START - VCLOCK_START;
		break;
	case CLOCK_TAI:
		base = VREALTIME_START - VCLOCK_START + TAI_OFFSET;
		break;
	default:
		return 0;
	}
	__green_vclock += STEP_NS;
	*ns = __green_vclock + base;
	return 1;
}

/* ---- the line that lets two runs be compared */

hidden void __green_explore_report(void)
{
	const struct green_config *c = &__green_config;
	if (!__green_xmode || reported) return;
	reported = 1;
	/* green-explore finds this format in a program: is it green? */
	__green_say("green: GREEN_SCHED=%s steps=%llu hash=%016llx\n", c->sched_text,
	            (unsigned long long)steps, (unsigned long long)hash);
}

/* The schedule so far (steps and hash), for a report made before exit:
 * the race detector's (src/race/print.c). */
hidden void __green_explore_where(uint64_t *s, uint64_t *h)
{
	*s = steps;
	*h = hash;
}

__attribute__((destructor)) static void at_exit(void)
{
	__green_explore_report();
}

/*
 * The fine-grained point: `green-cc --sched-points` compiles the program
 * with -fsanitize-coverage=trace-pc, which calls this at every basic
 * block.  It lives here, in code compiled without the flag (or it would
 * call itself).  Outside GREEN_SCHED it costs a load and a branch.  In
 * code also built with memory points (`--sched-points=all`), a block
 * that follows one that made memory accesses is no point: those were.
 */
void __sanitizer_cov_trace_pc(void)
{
	if (!__green_xmode) return;
	if (__green_mp_accessed) {
		/* --sched-points=all: the block before made memory accesses,
		 * which offered their own points; a block point serves only
		 * code that makes none (a total kept in a register) */
		__green_mp_accessed = 0;
		return;
	}
	__green_explore_point(1);
}
