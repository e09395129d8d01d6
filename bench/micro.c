/*
 * micro.c — thread micro-benchmarks, built twice: against green (threads
 * as coroutines on one kernel thread) and against stock musl (1:1 kernel
 * threads).  Output, one line per metric:
 *
 *     name median_ns min_ns max_ns
 *
 * each value being nanoseconds per operation over one trial; the median,
 * minimum and maximum are taken over BENCH_TRIALS trials (default 11,
 * at least 11).  Lines starting with '#' are comments.
 *
 * Each trial runs enough iterations to take about 30 ms × BENCH_SCALE
 * (default 1.0); the iteration count is calibrated per metric before the
 * trials start, and the calibration runs double as warm-up.
 *
 * Environment:
 *   BENCH_SCALE   multiplies the trial length (e.g. 0.2 for a quick run)
 *   BENCH_TRIALS  number of trials per metric (>= 11)
 *   BENCH_ONLY    run only the metric of that name
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TARGET_NS 30e6          /* nominal trial length at BENCH_SCALE=1 */
#define MIN_TRIALS 11

/* Keep the compiler from deleting or merging loop bodies. */
#define BARRIER() __asm__ __volatile__("" ::: "memory")
static volatile unsigned long sink;

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "micro: %s failed: %s\n", what, strerror(err));
	exit(1);
}

#define CHECK(call) do { int e_ = (call); if (e_) die(#call, e_); } while (0)

/*
 * A parked helper thread, blocked on a condition variable for the whole
 * of the single-threaded metrics: it keeps green in threaded mode (so
 * locks and yields take their real paths) without ever being runnable.
 */
static pthread_mutex_t park_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t park_c = PTHREAD_COND_INITIALIZER;
static int park_done;
static pthread_t park_thread;

static void *park_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&park_m);
	while (!park_done) pthread_cond_wait(&park_c, &park_m);
	pthread_mutex_unlock(&park_m);
	return 0;
}

static void park_start(void)
{
	park_done = 0;
	CHECK(pthread_create(&park_thread, 0, park_main, 0));
	/* Let it run up to its cond_wait (green starts it on the next switch). */
	for (int i = 0; i < 10; i++) sched_yield();
}

static void park_stop(void)
{
	pthread_mutex_lock(&park_m);
	park_done = 1;
	pthread_cond_signal(&park_c);
	pthread_mutex_unlock(&park_m);
	CHECK(pthread_join(park_thread, 0));
}

/*
 * yield_busy: two threads each call sched_yield() n times; every yield
 * switches to the other thread.  Result: ns per yield (= per switch).
 * The second thread is created and lined up on a barrier before the
 * clock starts; the clock stops once it has been joined.
 */
static pthread_barrier_t yb_bar;

static void *yield_peer(void *arg)
{
	long n = *(long *)arg;
	pthread_barrier_wait(&yb_bar);
	for (long i = 0; i < n; i++) sched_yield();
	return 0;
}

static double run_yield_busy(long n)
{
	pthread_t t;
	CHECK(pthread_barrier_init(&yb_bar, 0, 2));
	CHECK(pthread_create(&t, 0, yield_peer, &n));
	pthread_barrier_wait(&yb_bar);
	double t0 = now_ns();
	for (long i = 0; i < n; i++) sched_yield();
	CHECK(pthread_join(t, 0));
	double t1 = now_ns();
	pthread_barrier_destroy(&yb_bar);
	return t1 - t0;
}

/*
 * yield_notbusy: one thread calls sched_yield() with no other runnable
 * thread (only the parked helper exists).  Result: ns per call.
 */
static double run_yield_notbusy(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) sched_yield();
	return now_ns() - t0;
}

/*
 * mutex_uncontended: lock + unlock of a statically initialised default
 * mutex by one thread (the parked helper keeps the process threaded).
 * Result: ns per lock/unlock pair.
 */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static double run_mutex_uncontended(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&mu);
		BARRIER();
		pthread_mutex_unlock(&mu);
	}
	return now_ns() - t0;
}

/*
 * pingpong: Harman's ping-pong.  Two threads hand a turn variable back
 * and forth under one mutex, each waiting on its own condition variable
 * until the turn is its own.  Result: ns per iteration, one iteration
 * being one ping plus one pong (two hand-offs).
 */
static pthread_mutex_t pp_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pp_ping = PTHREAD_COND_INITIALIZER;
static pthread_cond_t pp_pong = PTHREAD_COND_INITIALIZER;
static int pp_turn;              /* 0: ping's turn, 1: pong's turn */

static void *pong_main(void *arg)
{
	long n = *(long *)arg;
	pthread_mutex_lock(&pp_m);
	for (long i = 0; i < n; i++) {
		while (pp_turn != 1) pthread_cond_wait(&pp_pong, &pp_m);
		pp_turn = 0;
		pthread_cond_signal(&pp_ping);
	}
	pthread_mutex_unlock(&pp_m);
	return 0;
}

static double run_pingpong(long n)
{
	pthread_t t;
	pp_turn = 0;
	CHECK(pthread_create(&t, 0, pong_main, &n));
	double t0 = now_ns();
	pthread_mutex_lock(&pp_m);
	for (long i = 0; i < n; i++) {
		pp_turn = 1;
		pthread_cond_signal(&pp_pong);
		while (pp_turn != 0) pthread_cond_wait(&pp_ping, &pp_m);
	}
	pthread_mutex_unlock(&pp_m);
	CHECK(pthread_join(t, 0));
	return now_ns() - t0;
}

/*
 * create_join: pthread_create (default attributes) + pthread_join of a
 * thread that returns at once.  Result: ns per pair.
 */
static void *return_at_once(void *arg)
{
	return arg;
}

static double run_create_join(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		pthread_t t;
		void *r;
		CHECK(pthread_create(&t, 0, return_at_once, (void *)i));
		CHECK(pthread_join(t, &r));
		sink += (unsigned long)r;
	}
	return now_ns() - t0;
}

/*
 * self: pthread_self().  Result: ns per call.
 */
static double run_self(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		sink = (unsigned long)pthread_self();
		BARRIER();
	}
	return now_ns() - t0;
}

struct metric {
	const char *name;
	double (*run)(long n);   /* elapsed ns for n iterations */
	double ops_per_iter;     /* operations per iteration (2 for yield_busy) */
	int parked;              /* run with the parked helper thread present */
};

static const struct metric metrics[] = {
	{ "yield_busy",        run_yield_busy,        2, 0 },
	{ "yield_notbusy",     run_yield_notbusy,     1, 1 },
	{ "mutex_uncontended", run_mutex_uncontended, 1, 1 },
	{ "pingpong",          run_pingpong,          1, 0 },
	{ "create_join",       run_create_join,       1, 0 },
	{ "self",              run_self,              1, 1 },
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Find n such that one trial takes about target ns. */
static long calibrate(const struct metric *m, double target)
{
	long n = 16;
	double t;
	for (;;) {
		t = m->run(n);
		if (t >= target / 8 || n >= (1L << 40)) break;
		n *= 4;
	}
	double scaled = n * (target / (t > 1 ? t : 1));
	return scaled < 16 ? 16 : (long)scaled;
}

static double env_double(const char *name, double dflt)
{
	const char *s = getenv(name);
	char *end;
	if (!s || !*s) return dflt;
	double v = strtod(s, &end);
	if (*end || !(v > 0)) {
		fprintf(stderr, "micro: bad %s=%s\n", name, s);
		exit(2);
	}
	return v;
}

int main(void)
{
	double scale = env_double("BENCH_SCALE", 1.0);
	int trials = (int)env_double("BENCH_TRIALS", MIN_TRIALS);
	const char *only = getenv("BENCH_ONLY");
	double target = TARGET_NS * scale;
	if (trials < MIN_TRIALS) trials = MIN_TRIALS;

	double *v = malloc(trials * sizeof *v);
	if (!v) die("malloc", 12);
	printf("# metric median_ns min_ns max_ns (trials=%d scale=%g)\n", trials, scale);
	fflush(stdout);

	int ran = 0;
	for (size_t k = 0; k < sizeof metrics / sizeof *metrics; k++) {
		const struct metric *m = &metrics[k];
		if (only && *only && strcmp(only, m->name)) continue;
		if (m->parked) park_start();
		long n = calibrate(m, target);
		for (int i = 0; i < trials; i++)
			v[i] = m->run(n) / (n * m->ops_per_iter);
		if (m->parked) park_stop();
		qsort(v, trials, sizeof *v, cmp_double);
		double median = trials % 2 ? v[trials / 2] : (v[trials / 2 - 1] + v[trials / 2]) / 2;
		printf("# %s: %ld iterations per trial\n", m->name, n);
		printf("%s %.2f %.2f %.2f\n", m->name, median, v[0], v[trials - 1]);
		fflush(stdout);
		ran++;
	}
	free(v);
	if (!ran) {
		fprintf(stderr, "micro: no metric named %s\n", only);
		return 2;
	}
	return 0;
}
