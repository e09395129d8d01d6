/*
 * ring.c — copied-stack switch cost against live stack depth and the
 * number of threads taking turns.
 *
 *   ring THREADS DEPTH ROUNDS
 *
 * THREADS threads, each DEPTH bytes of touched stack below its loop, take
 * turns by sched_yield (one switch per yield), ROUNDS turns each after a
 * warm-up round.  Prints "ring THREADS DEPTH ns-per-switch" in the
 * process's CPU time (bench/copied.sh runs it; docs/stacks.md has the
 * figures).  With more threads than GREEN_COPIED_HOT every switch loads
 * a cold stack and evicts another.  Built by hand:
 *
 *   build/bin/green-cc -O2 -o ring bench/ring.c
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long rounds;
static size_t depth;
static volatile int go;
static volatile char sink;

static void spin(void)
{
	while (!go) sched_yield();
	for (long i = 0; i < rounds; i++) sched_yield();
}

__attribute__((noinline)) static void *body(void *arg)
{
	char *pad = __builtin_alloca(depth + 16);
	memset(pad, 0x5a, depth + 16);
	__asm__ __volatile__("" :: "r"(pad) : "memory");
	spin();
	__asm__ __volatile__("" :: "r"(pad) : "memory");
	sink = pad[depth];
	return arg;
}

static double cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	pthread_t *t;
	double t0, t1;

	depth = argc > 2 ? strtoul(argv[2], 0, 0) : 0;
	rounds = argc > 3 ? atol(argv[3]) : 10000;
	if (n < 1 || !(t = calloc(n, sizeof *t))) return 2;
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], 0, body, 0)) return 2;
	for (int i = 0; i < 3; i++) sched_yield();   /* every thread has run and waits */
	t0 = cpu_ns();
	go = 1;
	for (int i = 0; i < n; i++) pthread_join(t[i], 0);
	t1 = cpu_ns();
	printf("ring %d %zu %.1f\n", n, depth, (t1 - t0) / ((double)n * rounds));
	return 0;
}
