/*
 * micro.c — the IEEE 1003.4 micro-metrics of Marovich's section 3.
 *
 * Every metric prints "S name v1 ... vk" and "T name median min max n k":
 * ns per operation (bench.h).  Each group is timed in rounds, every round
 * running each of its metrics once (common.c).  Two groups:
 *
 *  - one thread working while a parked helper exists (so green and musl
 *    are in threaded mode): once, self, yield_notbusy, mutex_nocontention,
 *    cond_signal_nowaiter, cond_broadcast_nowaiter;
 *
 *  - two worker threads switching between each other, each running
 *    BENCH_DEPTH bytes of touched stack below its loop (the live stack a
 *    copied-stack switch must copy): yield_busy, mutex_contention,
 *    cond_signal_{out,in}[_timed].  The main thread only creates and joins
 *    them, so both switching threads are alike.
 *
 * Plus create_join, and V lines for stack allocation granularity.
 *
 * What one operation is, per metric (docs/tables.md has the derivations):
 *
 *   once                  pthread_once on a control already done
 *   self                  pthread_self
 *   handle_check          pthread_getschedparam(helper): a call
 *                         that takes a pthread_t, validated first (in
 *                         green, the live-descriptor registry); compare
 *                         with self.  Not measured for Pth.
 *   yield_notbusy         sched_yield, nothing else runnable
 *   yield_busy            sched_yield, the other thread runnable: 1 switch
 *   mutex_nocontention    lock + unlock, nobody else wants it
 *   mutex_contention      lock + unlock where the lock is held by the other
 *                         thread: both threads loop lock; yield; unlock
 *   cond_signal_nowaiter  pthread_cond_signal, nobody waits
 *   cond_broadcast_nowaiter  pthread_cond_broadcast, nobody waits
 *   cond_signal_out       the signaller sets a flag under the mutex, unlocks,
 *                         signals, yields; the waiter wakes, clears the
 *                         flag, waits again (2 switches per signal)
 *   cond_signal_in        the same, signalling before the unlock
 *   cond_signal_*_timed   the same with pthread_cond_timedwait (a deadline
 *                         an hour away)
 *   create_join           pthread_create (default attributes) + join of a
 *                         thread that returns at once
 *   yield_busy_cpuclock   yield_busy after the program has read a thread
 *                         CPU-time clock: green then accounts CPU time per
 *                         thread at every switch (src/core/sched/cputime.c), so
 *                         minus yield_busy it is that accounting's cost per
 *                         switch.  Last, because green cannot turn it off.
 */
#include "bench.h"
#include <unistd.h>

/* ---- one thread */

static b_once_t once_ctl = B_ONCE_INIT;
static int once_count;
static void once_init(void) { once_count++; }

static double run_once(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		b_once(&once_ctl, once_init);
		BARRIER();
	}
	return now_ns() - t0;
}

static double run_self(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		bench_sink = (unsigned long)b_self();
		BARRIER();
	}
	return now_ns() - t0;
}

static double run_handle_check(long n)
{
#ifndef BENCH_PTH
	struct sched_param sp;
	pthread_t me = park_handle();
	int pol;
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		bench_sink = (unsigned long)pthread_getschedparam(me, &pol, &sp);
		BARRIER();
	}
	return now_ns() - t0;
#else
	(void)n;
	return 0;
#endif
}

static double run_yield_notbusy(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) b_yield();
	return now_ns() - t0;
}

static b_mutex solo_m = B_MUTEX_INIT;

static double run_mutex_nocontention(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		b_lock(&solo_m);
		BARRIER();
		b_unlock(&solo_m);
	}
	return now_ns() - t0;
}

static b_cond solo_c = B_COND_INIT;

static double run_signal_nowaiter(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		b_signal(&solo_c);
		BARRIER();
	}
	return now_ns() - t0;
}

static double run_broadcast_nowaiter(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		b_broadcast(&solo_c);
		BARRIER();
	}
	return now_ns() - t0;
}

/* ---- two switching threads */

struct duo {
	long n;
	b_barrier bar;
	double start[2], end[2];
	void (*body[2])(struct duo *);
};

struct role { struct duo *d; int i; };

static void *role_body(void *arg)
{
	struct role *r = arg;
	b_barrier_wait(&r->d->bar);
	r->d->start[r->i] = now_ns();
	r->d->body[r->i](r->d);
	r->d->end[r->i] = now_ns();
	return 0;
}

static void *role_main(void *arg)
{
	return at_depth(bench_depth, role_body, arg);
}

/* Run body0 and body1 in two new threads; elapsed ns from the first
 * start to the last end. */
static double run_duo(long n, void (*b0)(struct duo *), void (*b1)(struct duo *))
{
	struct duo d = { .n = n, .body = { b0, b1 } };
	struct role r[2] = { { &d, 0 }, { &d, 1 } };
	b_thread t[2];
	b_barrier_init(&d.bar, 2);
	CHECK(b_create(&t[0], 0, role_main, &r[0]));
	CHECK(b_create(&t[1], 0, role_main, &r[1]));
	CHECK(b_join(t[0], 0));
	CHECK(b_join(t[1], 0));
	b_barrier_destroy(&d.bar);
	double s = d.start[0] < d.start[1] ? d.start[0] : d.start[1];
	double e = d.end[0] > d.end[1] ? d.end[0] : d.end[1];
	return e - s;
}

static void yielder(struct duo *d)
{
	for (long i = 0; i < d->n; i++) b_yield();
}

static double run_yield_busy(long n) { return run_duo(n, yielder, yielder); }

static double run_yield_busy_cpuclock(long n)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return run_duo(n, yielder, yielder);
}

static b_mutex cont_m = B_MUTEX_INIT;

static void contender(struct duo *d)
{
	for (long i = 0; i < d->n; i++) {
		b_lock(&cont_m);
		b_yield();
		b_unlock(&cont_m);
	}
}

static double run_mutex_contention(long n) { return run_duo(n, contender, contender); }

/* Signaller and waiter. */
static b_mutex sig_m = B_MUTEX_INIT;
static b_cond sig_c = B_COND_INIT;
static int sig_posted, sig_stop, sig_inside, sig_timed;

static void signaller(struct duo *d)
{
	for (long i = 0; i < d->n; i++) {
		b_lock(&sig_m);
		sig_posted = 1;
		if (sig_inside) {
			b_signal(&sig_c);
			b_unlock(&sig_m);
		} else {
			b_unlock(&sig_m);
			b_signal(&sig_c);
		}
		b_yield();
	}
	b_lock(&sig_m);
	sig_stop = 1;
	b_unlock(&sig_m);
	b_signal(&sig_c);
}

static void waiter(struct duo *d)
{
	b_deadline dl = { 0 };
	(void)d;
	if (sig_timed) b_deadline_far(&dl);
	b_lock(&sig_m);
	for (;;) {
		while (!sig_posted && !sig_stop) {
			if (sig_timed) b_timedwait(&sig_c, &sig_m, &dl);
			else b_wait(&sig_c, &sig_m);
		}
		if (!sig_posted) break;
		sig_posted = 0;
	}
	b_unlock(&sig_m);
	if (sig_timed) b_deadline_free(&dl);
}

static double run_signal(long n)
{
	sig_posted = sig_stop = 0;
	/* the waiter first, so that it is usually waiting at the first signal */
	return run_duo(n, waiter, signaller);
}

static double run_signal_out(long n) { sig_inside = 0; sig_timed = 0; return run_signal(n); }
static double run_signal_in(long n) { sig_inside = 1; sig_timed = 0; return run_signal(n); }
static double run_signal_out_timed(long n) { sig_inside = 0; sig_timed = 1; return run_signal(n); }
static double run_signal_in_timed(long n) { sig_inside = 1; sig_timed = 1; return run_signal(n); }

/* ---- create + join */

static void *return_at_once(void *arg) { return arg; }

static double run_create_join(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		b_thread t;
		void *r;
		CHECK(b_create(&t, 0, return_at_once, (void *)i));
		CHECK(b_join(t, &r));
		bench_sink += (unsigned long)r;
	}
	return now_ns() - t0;
}

/* ---- stack allocation granularity: what a thread gets for a request */

static void *report_stack(void *arg)
{
	*(long *)arg = b_stack_usable();
	return 0;
}

static void stack_granularity(void)
{
	static const long req[] = { 0, 2048, 4096, 4097, 16384, 65536, 65537 };
	printf("V page_size %ld\n", sysconf(_SC_PAGESIZE));
	for (size_t i = 0; i < sizeof req / sizeof *req; i++) {
		long usable = -1;
		b_thread t;
		int e = b_create(&t, req[i], report_stack, &usable);
		if (e) {
			printf("V stack_usable %ld error %d\n", req[i], e);
			continue;
		}
		CHECK(b_join(t, 0));
		printf("V stack_usable %ld %ld\n", req[i], usable);
	}
}

/* The three groups, each timed in rounds (common.c): the parked ones
 * first, then the switching ones once the helper is gone, then the one
 * that turns on green's CPU-time accounting for good. */
static const struct bench_metric parked_group[] = {
	{ "once", run_once, 1 },
	{ "self", run_self, 1 },
	{ "handle_check", run_handle_check, 1 },
	{ "yield_notbusy", run_yield_notbusy, 1 },
	{ "mutex_nocontention", run_mutex_nocontention, 1 },
	{ "cond_signal_nowaiter", run_signal_nowaiter, 1 },
	{ "cond_broadcast_nowaiter", run_broadcast_nowaiter, 1 },
};
static const struct bench_metric switch_group[] = {
	{ "yield_busy", run_yield_busy, 2 },
	{ "mutex_contention", run_mutex_contention, 2 },
	{ "cond_signal_out", run_signal_out, 1 },
	{ "cond_signal_in", run_signal_in, 1 },
	{ "cond_signal_out_timed", run_signal_out_timed, 1 },
	{ "cond_signal_in_timed", run_signal_in_timed, 1 },
	{ "create_join", run_create_join, 1 },
};
static const struct bench_metric cpuclock_group[] = {
	{ "yield_busy_cpuclock", run_yield_busy_cpuclock, 2 },
};

/* Every key BENCH_ONLY takes and the row of tables.md it fills (`bench-*
 * list`; tables.py names its rows from this list, kept in the run's raw
 * directory). */
const struct bench_key bench_keys[] = {
	{ "once", "Once-only overhead (`pthread_once`, done)", 0 },
	{ "self", "Self-identification (`pthread_self`)", 0 },
	{ "handle_check", "Handle check (`pthread_getschedparam` of another thread; not in the tables)", 0 },
	{ "yield_notbusy", "Yield, not busy", 0 },
	{ "mutex_nocontention", "Mutex lock/unlock, no contention", 0 },
	{ "cond_signal_nowaiter", "Condition signal, no waiter", 0 },
	{ "cond_broadcast_nowaiter", "Condition broadcast, no waiter", 0 },
	{ "yield_busy", "Yield, busy (one switch)", 0 },
	{ "mutex_contention", "Mutex lock/unlock, long-term contention", 0 },
	{ "cond_signal_out", "Condition signal, waiter, outside critical section", 0 },
	{ "cond_signal_in", "Condition signal, waiter, inside critical section", 0 },
	{ "cond_signal_out_timed", "Condition signal, timed waiter, outside", 0 },
	{ "cond_signal_in_timed", "Condition signal, timed waiter, inside", 0 },
	{ "create_join", "Thread create + join", 0 },
	{ "yield_busy_cpuclock", "Yield, busy, with per-thread CPU-time accounting on (not in the tables)", 0 },
	{ "stack_granularity", "Stack allocation granularity; Stack allocation: what a thread gets for a request", 0 },
	{ 0, 0, 0 },
};

/* The derived rows: each is taken within every round (tables.py), from
 * the metrics it names. */
const struct bench_key bench_derived[] = {
	{ "lock_manip", "Lock manipulation (derived: long-term − yield busy)",
	  "mutex_contention,yield_busy" },
	{ "event_manip", "Event manipulation (derived: signal outside − 2 × yield busy)",
	  "cond_signal_out,yield_busy" },
	{ "event_lock_manip", "Event + lock manipulation (derived: signal inside − 2 × yield busy)",
	  "cond_signal_in,yield_busy" },
	{ "timed_extra", "Timed-wait extra (derived: mean of timed − untimed)",
	  "cond_signal_out_timed,cond_signal_out,cond_signal_in_timed,cond_signal_in" },
	{ 0, 0, 0 },
};

#define N(a) (sizeof a / sizeof *a)

int cmd_micro(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	park_start();
	timed_rounds(parked_group, N(parked_group));
	park_stop();
	timed_rounds(switch_group, N(switch_group));
	timed_rounds(cpuclock_group, N(cpuclock_group));
	if (bench_selected("stack_granularity")) stack_granularity();
	if (bench_selected("once") && once_count != 1) {
		fprintf(stderr, "bench: once ran its function %d times\n", once_count);
		return 1;
	}
	return 0;
}
