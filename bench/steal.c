/*
 * steal.c — a work-stealing executor whose idle workers spin.
 *
 *   steal WORKERS TASKS [TASK_US [WAVE [SPIN]]]
 *
 * The shape of the executors of task-graph libraries (taskflow's, and
 * the scheduler loops of Cilk-like runtimes): WORKERS threads each own
 * a deque of tasks.  A worker pops the newest task of its own deque;
 * when that is empty it tries to steal the oldest task of another
 * worker's deque or of the shared queue the submitting thread fills,
 * picking its victims round robin from a random start.  An idle worker
 * does not sleep at once: it keeps stealing in a busy loop, with no
 * system call and no sched_yield, a short pause between rounds (a
 * handful of `pause` instructions on x86), because work usually comes
 * back within microseconds and a sleep and its wake-up cost more than
 * that.  Only after SPIN rounds that found nothing (default 2000, some
 * tens to hundreds of microseconds) does it sleep on a condition
 * variable until a push says there is new work.
 *
 * The submitting thread (main) feeds a stream: TASKS tasks in waves of
 * WAVE (default 1000), pushed onto the shared queue, each wave waited
 * for (a condition variable the last task of the wave signals) before
 * the next is pushed, as a program does that runs a task graph again
 * and again.  Each task computes about TASK_US microseconds (default 1;
 * a loop calibrated at start-up); every fourth task spawns two children
 * of the same size onto its worker's own deque, which other workers may
 * steal.  So the work is 1.5 × TASKS × TASK_US of computing, and between
 * waves every worker goes idle and spins.
 *
 * What it measures is how the thread package shares one CPU between
 * threads that compute something useful and threads that spin.  With
 * kernel threads, Linux divides a target latency among the runnable
 * threads and lets a thread that slept (main, woken at a wave's end)
 * preempt one that spins.  On one kernel thread a spinner keeps the CPU
 * until its slice ends or it gives up and sleeps, and meanwhile neither
 * main nor a worker holding tasks in its deque can run.  So the figure
 * to watch is the CPU time (user + sys, getrusage) the whole job takes,
 * beside its wall time; both are taken from the first wave to the last.
 * bench/run.sh runs it pinned to one CPU for every build.
 *
 * The deques are Chase and Lev's ("Dynamic circular work-stealing
 * deque", SPAA 2005) in the C11 form of Lê, Pop, Cohen and Zappa
 * Nardelli ("Correct and efficient work-stealing for weak memory
 * models", PPoPP 2013), with a fixed capacity: a push that finds its
 * deque full runs the task at once instead.  The owner alone pushes and
 * takes at the bottom; thieves steal at the top.
 *
 * Every task records that it ran; the program checks at the end that
 * each ran exactly once and exits 1 otherwise, so a broken deque or a
 * lost wake-up (which hangs) cannot print a figure.  Prints:
 *
 *   V steal_wall_ms MS, V steal_cpu_ms MS (user + sys),
 *   V steal_user_ms MS, V steal_sys_ms MS,
 *   V steal_tasks N (tasks run, children included),
 *   V steal_steals N (tasks taken from another deque or the shared one),
 *   V steal_sleeps N (times a worker gave up spinning and slept)
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define CAP 4096   /* tasks per deque, a power of two */
#define EMPTY (-1L)
#define ABORT (-2L)

/* ---- the deque (Chase-Lev, fixed capacity) */

struct deque {
	_Atomic long top, bottom;
	_Atomic long buf[CAP];
	char pad[64];
};

static int dq_push(struct deque *q, long x)
{
	long b = atomic_load_explicit(&q->bottom, memory_order_relaxed);
	long t = atomic_load_explicit(&q->top, memory_order_acquire);
	if (b - t >= CAP) return 0;
	atomic_store_explicit(&q->buf[b & (CAP - 1)], x, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&q->bottom, b + 1, memory_order_relaxed);
	return 1;
}

static long dq_take(struct deque *q)
{
	long b = atomic_load_explicit(&q->bottom, memory_order_relaxed) - 1, t, x;
	atomic_store_explicit(&q->bottom, b, memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst);
	t = atomic_load_explicit(&q->top, memory_order_relaxed);
	if (t > b) {
		atomic_store_explicit(&q->bottom, b + 1, memory_order_relaxed);
		return EMPTY;
	}
	x = atomic_load_explicit(&q->buf[b & (CAP - 1)], memory_order_relaxed);
	if (t == b) {   /* the last one: race the thieves for it */
		if (!atomic_compare_exchange_strong_explicit(&q->top, &t, t + 1,
				memory_order_seq_cst, memory_order_relaxed))
			x = EMPTY;
		atomic_store_explicit(&q->bottom, b + 1, memory_order_relaxed);
	}
	return x;
}

static long dq_steal(struct deque *q)
{
	long t = atomic_load_explicit(&q->top, memory_order_acquire), b, x;
	atomic_thread_fence(memory_order_seq_cst);
	b = atomic_load_explicit(&q->bottom, memory_order_acquire);
	if (t >= b) return EMPTY;
	x = atomic_load_explicit(&q->buf[t & (CAP - 1)], memory_order_relaxed);
	if (!atomic_compare_exchange_strong_explicit(&q->top, &t, t + 1,
			memory_order_seq_cst, memory_order_relaxed))
		return ABORT;
	return x;
}

/* ---- the executor */

static int nworkers, spin_rounds;
static long ntasks, wave, iters_per_task;
static struct deque *deques;      /* one per worker, then the shared queue */
static _Atomic int *ran;          /* times each task ran: tasks, then children */
static _Atomic long pending;      /* tasks of this wave not yet finished */
static _Atomic long steals, sleeps, epoch;
static _Atomic int sleepers, done;
static unsigned long *sink;       /* the tasks' results, a cache line per worker */
static unsigned long calib_sink;
static pthread_mutex_t idle_m = PTHREAD_MUTEX_INITIALIZER, wave_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_c = PTHREAD_COND_INITIALIZER, wave_c = PTHREAD_COND_INITIALIZER;
static int wave_over;

static inline void pause_cpu(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

__attribute__((noinline)) static unsigned long compute(unsigned long x, long n)
{
	for (long i = 0; i < n; i++) {   /* xorshift: no call, no memory */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

/* new work: a sleeping worker, if any, is told (all of them for a wave) */
static void notify(int all)
{
	atomic_fetch_add(&epoch, 1);
	if (atomic_load(&sleepers) == 0) return;
	pthread_mutex_lock(&idle_m);
	if (all) pthread_cond_broadcast(&idle_c);
	else pthread_cond_signal(&idle_c);
	pthread_mutex_unlock(&idle_m);
}

static void finish_one(void)
{
	if (atomic_fetch_sub(&pending, 1) != 1) return;
	pthread_mutex_lock(&wave_m);
	wave_over = 1;
	pthread_cond_signal(&wave_c);
	pthread_mutex_unlock(&wave_m);
}

/* a task: id < ntasks a submitted one, above that a child */
static void run_task(int self, long id)
{
	atomic_fetch_add_explicit(&ran[id], 1, memory_order_relaxed);
	sink[self * 8] += compute(id + 1, iters_per_task);
	if (id < ntasks && id % 4 == 0) {
		for (long k = 1; k <= 2; k++) {
			long child = ntasks + id / 4 * 2 + k - 1;
			atomic_fetch_add(&pending, 1);
			if (dq_push(&deques[self], child)) notify(0);
			else run_task(self, child);
		}
	}
	finish_one();
}

/* one round over every other deque and the shared queue */
static long steal_round(int self, unsigned *seed)
{
	int n = nworkers + 1;
	int start = (int)((*seed = *seed * 1103515245 + 12345) >> 16) % n;
	for (int i = 0; i < n; i++) {
		int v = (start + i) % n;
		long x;
		if (v == self) continue;
		while ((x = dq_steal(&deques[v])) == ABORT) ;
		if (x != EMPTY) {
			atomic_fetch_add_explicit(&steals, 1, memory_order_relaxed);
			return x;
		}
	}
	return EMPTY;
}

static void *worker(void *arg)
{
	int self = (int)(long)arg;
	unsigned seed = 2654435761u * (self + 1);

	while (!atomic_load(&done)) {
		long x = dq_take(&deques[self]), seen;
		if (x != EMPTY) {
			run_task(self, x);
			continue;
		}
		/* idle: spin-steal, then sleep until a push */
		seen = atomic_load(&epoch);
		for (int r = 0; r < spin_rounds && x == EMPTY && !atomic_load(&done); r++) {
			x = steal_round(self, &seed);
			if (x == EMPTY)
				for (int p = 0; p < 8; p++) pause_cpu();
		}
		if (x != EMPTY) {
			run_task(self, x);
			continue;
		}
		pthread_mutex_lock(&idle_m);
		atomic_fetch_add(&sleepers, 1);
		if (atomic_load(&epoch) == seen && !atomic_load(&done)) {
			atomic_fetch_add_explicit(&sleeps, 1, memory_order_relaxed);
			while (atomic_load(&epoch) == seen && !atomic_load(&done))
				pthread_cond_wait(&idle_c, &idle_m);
		}
		atomic_fetch_sub(&sleepers, 1);
		pthread_mutex_unlock(&idle_m);
	}
	return 0;
}

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_ms(struct rusage *ru, int sys)
{
	struct timeval *tv = sys ? &ru->ru_stime : &ru->ru_utime;
	return tv->tv_sec * 1e3 + tv->tv_usec / 1e3;
}

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* loop iterations per TASK_US microseconds of computing, in CPU time (a
 * loaded machine's wall clock would make the tasks shorter) */
static long calibrate(double task_us)
{
	long n = 1000;
	double t;
	for (;;) {
		double t0 = cpu_now();
		calib_sink += compute(n, n);
		t = cpu_now() - t0;
		if (t > 0.05 || n > LONG_MAX / 4) break;
		n *= 2;
	}
	n = (long)(n * task_us * 1e-6 / t);
	return n > 0 ? n : 1;
}

int main(int argc, char **argv)
{
	pthread_t *th;
	struct rusage r0, r1;
	double t0, t1, task_us = 1;
	long children, total, bad = 0;
	int q;

	if (argc < 3 || argc > 6) {
		fprintf(stderr, "usage: steal WORKERS TASKS [TASK_US [WAVE [SPIN]]]\n");
		return 2;
	}
	nworkers = atoi(argv[1]);
	ntasks = atol(argv[2]);
	if (argc > 3) task_us = atof(argv[3]);
	wave = argc > 4 ? atol(argv[4]) : 1000;
	spin_rounds = argc > 5 ? atoi(argv[5]) : 2000;
	if (nworkers < 1 || ntasks < 1 || wave < 1 || wave > CAP || spin_rounds < 0 || task_us < 0) {
		fprintf(stderr, "steal: WORKERS and TASKS at least 1, WAVE 1 to %d, SPIN and TASK_US not negative\n", CAP);
		return 2;
	}
	children = (ntasks + 3) / 4 * 2;
	total = ntasks + children;
	iters_per_task = calibrate(task_us);
	deques = aligned_alloc(64, (nworkers + 1) * sizeof *deques);
	ran = calloc(total, sizeof *ran);
	th = calloc(nworkers, sizeof *th);
	sink = calloc(nworkers * 8, sizeof *sink);
	if (!deques || !ran || !th || !sink) {
		perror("steal");
		return 2;
	}
	memset(deques, 0, (nworkers + 1) * sizeof *deques);
	q = nworkers;   /* the shared queue: main pushes, workers steal */
	for (long i = 0; i < nworkers; i++)
		if (pthread_create(&th[i], 0, worker, (void *)i)) {
			perror("steal: pthread_create");
			return 2;
		}

	getrusage(RUSAGE_SELF, &r0);
	t0 = mono();
	for (long first = 0; first < ntasks; first += wave) {
		long n = ntasks - first < wave ? ntasks - first : wave;
		pthread_mutex_lock(&wave_m);
		wave_over = 0;
		pthread_mutex_unlock(&wave_m);
		atomic_store(&pending, n);
		for (long i = 0; i < n; i++) dq_push(&deques[q], first + i);
		notify(1);
		pthread_mutex_lock(&wave_m);
		while (!wave_over) pthread_cond_wait(&wave_c, &wave_m);
		pthread_mutex_unlock(&wave_m);
	}
	t1 = mono();
	getrusage(RUSAGE_SELF, &r1);

	atomic_store(&done, 1);
	notify(1);
	for (int i = 0; i < nworkers; i++) pthread_join(th[i], 0);
	for (long i = 0; i < total; i++)
		if (atomic_load(&ran[i]) != 1) {
			if (!bad++) fprintf(stderr, "steal: task %ld ran %d times\n", i, atomic_load(&ran[i]));
		}
	if (bad) {
		fprintf(stderr, "steal: %ld of %ld tasks did not run exactly once\n", bad, total);
		return 1;
	}
	printf("V steal_wall_ms %.1f\n", (t1 - t0) * 1e3);
	printf("V steal_cpu_ms %.1f\n", cpu_ms(&r1, 0) - cpu_ms(&r0, 0) + cpu_ms(&r1, 1) - cpu_ms(&r0, 1));
	printf("V steal_user_ms %.1f\n", cpu_ms(&r1, 0) - cpu_ms(&r0, 0));
	printf("V steal_sys_ms %.1f\n", cpu_ms(&r1, 1) - cpu_ms(&r0, 1));
	printf("V steal_tasks %ld\n", total);
	printf("V steal_steals %ld\n", atomic_load(&steals));
	printf("V steal_sleeps %ld\n", atomic_load(&sleeps));
	return 0;
}
