/*
 * pshared.c — cross-process wake-up latency: two processes ping-pong on
 * a process-shared mutex and condition variable in a MAP_SHARED mapping.
 *
 *   pshared ROUNDS BUSY
 *
 * Each side waits (pthread_cond_wait) for its turn; the other side
 * stamps CLOCK_MONOTONIC into the shared page, passes the turn and
 * signals.  A sample is stamp -> the waiter running again with the
 * mutex: the time another process's signal takes to wake a thread.
 * BUSY = 1 gives each process a thread that computes meanwhile (its
 * process is never idle: green notices the wake at a re-check, see
 * docs/sync.md), 0 leaves the waiting process idle.
 *
 *   T pshared_wake[_busy] MEDIAN MIN MAX 1 SAMPLES   (ns)
 *   V pshared_wake[_busy]_pct P10 P90 P99            (ns)
 */
#include "bench.h"

#ifndef BENCH_PTH
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

struct pp {
	pthread_mutex_t m;
	pthread_cond_t c;
	volatile int turn, stop;
	volatile double stamp;
};

static volatile int spin_stop;

static void *spinner(void *arg)
{
	(void)arg;
	while (!spin_stop) bench_sink++;
	return 0;
}

/* Play side `me` for `rounds` rounds; record the wake-ups seen. */
static int play(struct pp *s, int me, long rounds, double *v)
{
	int k = 0;
	for (long i = 0; i < rounds; i++) {
		CHECK(pthread_mutex_lock(&s->m));
		while (s->turn != me) CHECK(pthread_cond_wait(&s->c, &s->m));
		if (v && s->stamp > 0) v[k++] = now_ns() - s->stamp;
		s->stamp = now_ns();
		s->turn = !me;
		CHECK(pthread_cond_signal(&s->c));
		CHECK(pthread_mutex_unlock(&s->m));
	}
	return k;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int cmd_pshared(int argc, char **argv)
{
	long rounds = argc > 0 ? atol(argv[0]) : 2000;
	int busy = argc > 1 ? atoi(argv[1]) : 0;
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	pthread_t spin;
	struct pp *s;
	double *v;
	int k, st;
	pid_t pid;

	s = mmap(0, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	v = calloc(rounds, sizeof *v);
	if (s == MAP_FAILED || !v) die("mmap", errno);
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	CHECK(pthread_mutex_init(&s->m, &ma));
	CHECK(pthread_cond_init(&s->c, &ca));
	pid = fork();
	if (pid < 0) die("fork", errno);
	if (busy) CHECK(pthread_create(&spin, 0, spinner, 0));
	if (!pid) {
		play(s, 1, rounds, 0);
		if (busy) {
			spin_stop = 1;
			pthread_join(spin, 0);
		}
		_exit(0);
	}
	k = play(s, 0, rounds, v);
	if (busy) {
		spin_stop = 1;
		pthread_join(spin, 0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) die("child", EIO);
	if (k < 2) die("samples", EIO);
	qsort(v, k, sizeof *v, cmp);
	printf("V pshared_wake%s_pct %.0f %.0f %.0f\n", busy ? "_busy" : "",
	       v[k / 10], v[k * 9 / 10], v[k * 99 / 100]);
	report(busy ? "pshared_wake_busy" : "pshared_wake", v, k, 1);
	return 0;
}
#endif
