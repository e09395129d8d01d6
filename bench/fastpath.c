/*
 * fastpath.c — the fast paths in CPU time, each beside what it is held
 * to (docs/fastpaths.md): a yield that switches beside the least a
 * switch can be (bench/handswitch.S, measured in the same process), and
 * an uncontended lock and unlock beside the other libraries' (the same
 * source built for green, musl's 1:1 mode and glibc: bench/fastpath.sh).
 *
 *   fastpath           one line per operation: name, CPU ns per operation
 *
 * Time is the process's CPU clock, not the wall clock, so that a loaded
 * machine that takes the CPU away does not inflate it; each figure is the
 * median of TRIALS trials of a calibrated number of repetitions.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TRIALS 7
#define TRIAL_NS 20e6

static double cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* the median over TRIALS of run(n)'s ns per operation, n calibrated */
static double measure(double (*run)(long), long ops_per_n)
{
	double t[TRIALS];
	long n = 1000;
	while (run(n) < TRIAL_NS / 4 && n < (1L << 40)) n *= 2;
	n = (long)(n * (TRIAL_NS / run(n))) + 1;
	for (int i = 0; i < TRIALS; i++) t[i] = run(n) / ((double)n * ops_per_n);
	qsort(t, TRIALS, sizeof *t, cmp);
	return t[TRIALS / 2];
}

#define BARRIER() __asm__ __volatile__("" ::: "memory")

/* ---- uncontended lock and unlock, with another thread parked */

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static double run_mutex(long n)
{
	double t0 = cpu_ns();
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&m);
		BARRIER();
		pthread_mutex_unlock(&m);
	}
	return cpu_ns() - t0;
}

static double run_yield(long n)
{
	double t0 = cpu_ns();
	for (long i = 0; i < n; i++) sched_yield();
	return cpu_ns() - t0;
}

static pthread_cond_t c = PTHREAD_COND_INITIALIZER;

static double run_signal(long n)
{
	double t0 = cpu_ns();
	for (long i = 0; i < n; i++) {
		pthread_cond_signal(&c);
		BARRIER();
	}
	return cpu_ns() - t0;
}

/* ---- two threads yielding to each other: a yield is one switch */

static long duo_n;

static void *yielder(void *arg)
{
	for (long i = 0; i < duo_n; i++) sched_yield();
	return arg;
}

static double run_yield_busy(long n)
{
	pthread_t a, b;
	double t0 = cpu_ns();
	duo_n = n;
	pthread_create(&a, 0, yielder, 0);
	pthread_create(&b, 0, yielder, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return cpu_ns() - t0;
}

/* ---- the least a switch can be: two contexts on stacks of their own */

typedef void switch_fn(void **save, void *load);
switch_fn hand_switch, hand_switch_fp;
extern int hand_switch_available __attribute__((weak));
static switch_fn *hand;
static void *main_sp, *other_sp;
static char other_stack[64 * 1024] __attribute__((aligned(16)));

static void other_loop(void)
{
	for (;;) hand(&other_sp, main_sp);
}

static double run_hand(long n)
{
	double t0 = cpu_ns();
	for (long i = 0; i < n; i++) hand(&main_sp, other_sp);
	return cpu_ns() - t0;
}

/* A fresh context whose first switch-in returns into other_loop: the six
 * registers the switch pops, then the return address (x86_64); below
 * them, for hand_switch_fp, the MXCSR and x87 control word the process
 * runs with (what main's context has too, so neither is ever loaded). */
static void hand_make(switch_fn *f)
{
	void **sp = (void **)(other_stack + sizeof other_stack - 16);
	*--sp = 0;                           /* other_loop's return address slot (never used) */
	*--sp = (void *)other_loop;
	for (int i = 0; i < 6; i++) *--sp = 0;
	if (f == hand_switch_fp) {
#if defined(__x86_64__)
		unsigned mxcsr;
		unsigned short cw;
		__asm__ volatile ("stmxcsr %0; fnstcw %1" : "=m"(mxcsr), "=m"(cw));
		*--sp = (void *)((unsigned long)cw << 32 | mxcsr);
#endif
	}
	hand = f;
	other_sp = sp;
}

static pthread_mutex_t park_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t park_c = PTHREAD_COND_INITIALIZER;
static int park_done;

static void *parked(void *arg)
{
	pthread_mutex_lock(&park_m);
	while (!park_done) pthread_cond_wait(&park_c, &park_m);
	pthread_mutex_unlock(&park_m);
	return arg;
}

int main(void)
{
	pthread_t helper;

	pthread_create(&helper, 0, parked, 0);
	sched_yield();
	/* a yield that switches counts one switch; so does a hand switch */
	printf("yield_busy %.2f\n", measure(run_yield_busy, 2));
	if (&hand_switch_available && hand_switch_available) {
		hand_make(hand_switch);
		printf("hand_switch %.2f\n", measure(run_hand, 2));
		hand_make(hand_switch_fp);
		printf("hand_switch_fp %.2f\n", measure(run_hand, 2));
	} else {
		printf("hand_switch n/a\nhand_switch_fp n/a\n");
	}
	printf("mutex %.2f\n", measure(run_mutex, 1));
	printf("yield %.2f\n", measure(run_yield, 1));
	printf("signal %.2f\n", measure(run_signal, 1));

	pthread_mutex_lock(&park_m);
	park_done = 1;
	pthread_cond_signal(&park_c);
	pthread_mutex_unlock(&park_m);
	pthread_join(helper, 0);
	return 0;
}
