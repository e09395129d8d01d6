/*
 * bench.h — what every benchmark file shares.
 *
 * The benchmark program is one source built three ways:
 *
 *   bench-green   green-cc              threads are coroutines (green)
 *   bench-1to1    green-cc --threads=1to1   stock musl kernel threads
 *   bench-pth     host cc -DBENCH_PTH -lpth  GNU Pth 2.0.7 on glibc
 *
 * The thread operations are reached through the small b_* layer below,
 * static inline functions over POSIX threads or over Pth's own API, so the
 * very same measuring code runs against all three.  An operation Pth does
 * not have is marked with B_HAVE_* = 0 and its metric prints "n/a".
 *
 * Output protocol (stdout), read by bench/tables.py:
 *
 *   # text                       a comment
 *   T name median min max n k    a timing: ns per operation over k trials,
 *                                n = operations per trial
 *   S name v1 ... vk             the same k trials (ns per operation) in the
 *                                order they ran: round r of every metric of
 *                                a group is vr (tables.py subtracts within
 *                                rounds); not printed past BENCH_MAX_SAMPLES
 *   V name value...              a plain value (counts, bytes, flags)
 */
#ifndef BENCH_H
#define BENCH_H

#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef BENCH_PTH
#include <pth.h>
#else
#include <pthread.h>
#include <sched.h>
#endif

/* Keep the compiler from deleting or merging loop bodies. */
#define BARRIER() __asm__ __volatile__("" ::: "memory")
extern volatile unsigned long bench_sink;

/* ---- the thread layer ------------------------------------------------ */

#ifdef BENCH_PTH

#define B_IMPL "pth"
typedef pth_t b_thread;
typedef pth_mutex_t b_mutex;
typedef pth_cond_t b_cond;
typedef pth_once_t b_once_t;
typedef pth_barrier_t b_barrier;
typedef pth_event_t b_deadline;
#define B_MUTEX_INIT PTH_MUTEX_INIT
#define B_COND_INIT PTH_COND_INIT
#define B_ONCE_INIT PTH_ONCE_INIT

static inline void b_init(void) { pth_init(); }

static inline int b_create(b_thread *t, size_t stack, void *(*fn)(void *), void *arg)
{
	pth_attr_t a = PTH_ATTR_DEFAULT;
	if (stack) {
		a = pth_attr_new();
		pth_attr_set(a, PTH_ATTR_STACK_SIZE, (unsigned)stack);
	}
	*t = pth_spawn(a, fn, arg);
	int e = *t ? 0 : (errno ? errno : EAGAIN);
	if (stack) pth_attr_destroy(a);
	return e;
}
static inline int b_join(b_thread t, void **r) { return pth_join(t, r) ? 0 : errno; }
static inline void b_yield(void) { pth_yield(NULL); }
static inline void *b_self(void) { return (void *)pth_self(); }
static inline void b_mutex_init(b_mutex *m) { pth_mutex_init(m); }
static inline void b_lock(b_mutex *m) { pth_mutex_acquire(m, FALSE, NULL); }
static inline void b_unlock(b_mutex *m) { pth_mutex_release(m); }
static inline void b_cond_init(b_cond *c) { pth_cond_init(c); }
static inline void b_wait(b_cond *c, b_mutex *m) { pth_cond_await(c, m, NULL); }
static inline void b_timedwait(b_cond *c, b_mutex *m, b_deadline *d) { pth_cond_await(c, m, *d); }
static inline void b_signal(b_cond *c) { pth_cond_notify(c, FALSE); }
static inline void b_broadcast(b_cond *c) { pth_cond_notify(c, TRUE); }
static void b_once_tramp(void *f) { ((void (*)(void))f)(); }
static inline void b_once(b_once_t *o, void (*f)(void)) { pth_once(o, b_once_tramp, (void *)f); }
static inline void b_barrier_init(b_barrier *b, int n) { pth_barrier_init(b, n); }
static inline void b_barrier_wait(b_barrier *b) { pth_barrier_reach(b); }
static inline void b_barrier_destroy(b_barrier *b) { (void)b; }
/* A deadline an hour away: the timed waits below never time out. */
static inline void b_deadline_far(b_deadline *d) { *d = pth_event(PTH_EVENT_TIME, pth_timeout(3600, 0)); }
static inline void b_deadline_free(b_deadline *d) { pth_event_free(*d, PTH_FREE_THIS); }
static inline void b_sleep_us(long us) { pth_nap(pth_time(us / 1000000, us % 1000000)); }
/* Usable stack of the calling thread, as the package reports it. */
static inline long b_stack_usable(void)
{
	unsigned sz = 0;
	pth_attr_t a = pth_attr_of(pth_self());
	pth_attr_get(a, PTH_ATTR_STACK_SIZE, &sz);
	pth_attr_destroy(a);
	return sz;
}
/* The stack mode the calling thread got: Pth's stacks are its own. */
#define B_STACK_SEPARATE 1
#define B_STACK_COPIED 2
static inline int b_stack_mode(void) { return B_STACK_SEPARATE; }
#define B_HAVE_TIMESLICE 0

#else /* POSIX threads: green or 1:1 */

#ifdef __GREEN_THREADS__
/* the library the program runs on, asked at run time: green's libc has
 * its start-up hook, the 1:1 one none, so one dynamically linked binary
 * names the library green-run gave it (docs/dynamic.md) */
void __green_start(void) __attribute__((weak));
#define B_IMPL (__green_start ? "green" : "1to1")
#else
#define B_IMPL "pthreads"
#endif
typedef pthread_t b_thread;
typedef pthread_mutex_t b_mutex;
typedef pthread_cond_t b_cond;
typedef pthread_once_t b_once_t;
typedef pthread_barrier_t b_barrier;
typedef struct timespec b_deadline;
#define B_MUTEX_INIT PTHREAD_MUTEX_INITIALIZER
#define B_COND_INIT PTHREAD_COND_INITIALIZER
#define B_ONCE_INIT PTHREAD_ONCE_INIT

static inline void b_init(void) {}

static inline int b_create(b_thread *t, size_t stack, void *(*fn)(void *), void *arg)
{
	if (!stack) return pthread_create(t, 0, fn, arg);
	pthread_attr_t a;
	pthread_attr_init(&a);
	int e = pthread_attr_setstacksize(&a, stack);
	if (!e) e = pthread_create(t, &a, fn, arg);
	pthread_attr_destroy(&a);
	return e;
}
static inline int b_join(b_thread t, void **r) { return pthread_join(t, r); }
static inline void b_yield(void) { sched_yield(); }
static inline void *b_self(void) { return (void *)pthread_self(); }
static inline void b_mutex_init(b_mutex *m) { pthread_mutex_init(m, 0); }
static inline void b_lock(b_mutex *m) { pthread_mutex_lock(m); }
static inline void b_unlock(b_mutex *m) { pthread_mutex_unlock(m); }
static inline void b_cond_init(b_cond *c) { pthread_cond_init(c, 0); }
static inline void b_wait(b_cond *c, b_mutex *m) { pthread_cond_wait(c, m); }
static inline void b_timedwait(b_cond *c, b_mutex *m, b_deadline *d) { pthread_cond_timedwait(c, m, d); }
static inline void b_signal(b_cond *c) { pthread_cond_signal(c); }
static inline void b_broadcast(b_cond *c) { pthread_cond_broadcast(c); }
static inline void b_once(b_once_t *o, void (*f)(void)) { pthread_once(o, f); }
static inline void b_barrier_init(b_barrier *b, int n) { pthread_barrier_init(b, 0, n); }
static inline void b_barrier_wait(b_barrier *b) { pthread_barrier_wait(b); }
static inline void b_barrier_destroy(b_barrier *b) { pthread_barrier_destroy(b); }
static inline void b_deadline_far(b_deadline *d)
{
	clock_gettime(CLOCK_REALTIME, d);
	d->tv_sec += 3600;
}
static inline void b_deadline_free(b_deadline *d) { (void)d; }
static inline void b_sleep_us(long us)
{
	struct timespec ts = { us / 1000000, us % 1000000 * 1000 };
	while (nanosleep(&ts, &ts)) {}
}
/* Usable stack of the calling thread: from the top pthread_getattr_np
 * reports down to the guard page, where the mapping that holds the
 * thread's locals starts (/proc/self/maps).  The size pthread_getattr_np
 * reports is not it: green, as NPTL, echoes the size asked for. */
static inline long b_stack_usable(void)
{
	pthread_attr_t a;
	void *addr;
	size_t sz = 0;
	unsigned long lo, hi, here = (unsigned long)&sz, top;
	char line[256];
	long usable = -1;
	FILE *f;
	if (pthread_getattr_np(pthread_self(), &a)) return -1;
	pthread_attr_getstack(&a, &addr, &sz);
	pthread_attr_destroy(&a);
	top = (unsigned long)addr + sz;
	if (!(f = fopen("/proc/self/maps", "r"))) return -1;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && here >= lo && here < hi) {
			usable = (long)(top - lo);
			break;
		}
	}
	fclose(f);
	return usable;
}
/* The stack mode the calling thread got, as green reports it
 * (pthread_getattr_np fills in the mode: docs/man/
 * pthread_attr_getstackmode_np.3); elsewhere, separate. */
#define B_STACK_SEPARATE 1
#define B_STACK_COPIED 2
static inline int b_stack_mode(void)
{
#if defined(__GREEN_THREADS__) && defined(PTHREAD_STACK_COPIED_NP)
	pthread_attr_t a;
	int mode = PTHREAD_STACK_DEFAULT_NP;
	if (pthread_getattr_np(pthread_self(), &a)) return B_STACK_SEPARATE;
	pthread_attr_getstackmode_np(&a, &mode);
	pthread_attr_destroy(&a);
	return mode == PTHREAD_STACK_COPIED_NP ? B_STACK_COPIED : B_STACK_SEPARATE;
#else
	return B_STACK_SEPARATE;
#endif
}
#define B_HAVE_TIMESLICE 1

#endif

/* ---- common.c -------------------------------------------------------- */

double now_ns(void);
void die(const char *what, int err);
#define CHECK(call) do { int e_ = (call); if (e_) die(#call, e_); } while (0)

/* Settings from the environment (see bench/README.md). */
extern double bench_scale;     /* BENCH_SCALE: trial length multiplier */
extern int bench_trials;       /* BENCH_TRIALS */
extern size_t bench_depth;     /* BENCH_DEPTH: live stack bytes in switch metrics */
extern const char *bench_only; /* BENCH_ONLY: comma-separated metric names */
extern double bench_budget;    /* BENCH_BUDGET: seconds a workload may take */
extern int bench_min_trials;   /* BENCH_MIN_TRIALS: trials even past the budget */
/* After `done` trials of a workload begun at t0 (now_ns): stop now? */
int trials_enough(int done, double t0);
int bench_selected(const char *name);

/* The metric keys BENCH_ONLY takes, each with the row of tables.md it
 * fills (micro.c); a derived row names the keys it is made from. */
struct bench_key {
	const char *key, *row, *from;
};
extern const struct bench_key bench_keys[], bench_derived[];

/*
 * Run fn(arg) `depth` bytes of touched stack below the caller, so that a
 * thread switching inside fn has at least that much live stack.
 */
void *at_depth(size_t depth, void *(*fn)(void *), void *arg);

/* A helper thread blocked on a condition variable: keeps the process in
 * threaded mode without ever being runnable. */
void park_start(void);
void park_stop(void);
b_thread park_handle(void);          /* the parked helper, while parked */

/*
 * Time a metric: run(n) returns the elapsed ns for n iterations of
 * `ops` operations each.  Calibrates n to about 30 ms × BENCH_SCALE, then
 * prints the T line (median, min, max over BENCH_TRIALS trials).
 */
void timed(const char *name, double (*run)(long n), double ops);
/* The same for a group, in rounds: round r runs every metric once
 * (common.c). */
struct bench_metric {
	const char *name;
	double (*run)(long n);
	double ops;              /* operations per iteration */
};
void timed_rounds(const struct bench_metric *m, size_t nm);
/* Print the S and T lines for samples already taken (ns per op each, in
 * the order taken; sorts v). */
#define BENCH_MAX_SAMPLES 64
void report(const char *name, double *v, int k, double ops_per_trial);

/* Read a /proc/meminfo field, in kB; -1 if absent. */
long meminfo_kb(const char *field);

/* ---- the subcommands ------------------------------------------------- */
int cmd_micro(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_ticks(int argc, char **argv);
int cmd_maxthreads(int argc, char **argv);
int cmd_procswitch(int argc, char **argv);
int cmd_pingpong(int argc, char **argv);
int cmd_shared(int argc, char **argv);
int cmd_bursty(int argc, char **argv);
int cmd_tp(int argc, char **argv) __attribute__((weak));   /* tls.c */
int cmd_pshared(int argc, char **argv) __attribute__((weak));   /* pshared.c */

#endif
