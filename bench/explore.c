/*
 * explore.c — the cost of seeded schedules (GREEN_SCHED, docs/scheduler.md).
 *
 *   bench-explore yield N     two threads each yield N times: ns per yield
 *                             (one scheduling decision each)
 *   bench-explore cpu N       one thread beside an idle one computes N
 *                             rounds of a small hash: ns per round (built
 *                             with and without --sched-points, and with
 *                             --sched-points=memory, by run.sh)
 *   bench-explore mem N       the same, but each round adds into 16 words
 *                             of an array the main thread filled (memory
 *                             shared between threads: under
 *                             --sched-points=memory every access a point)
 *
 * Prints "name ns" lines; run.sh runs it with and without GREEN_SCHED.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdint.h>

static long n;
static volatile uint64_t sink;

/* the process's CPU time: under GREEN_SCHED the monotonic and wall
 * clocks are virtual (docs/scheduler.md), the CPU-time clocks stay real */
static uint64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void *yielder(void *arg)
{
	for (long i = 0; i < n; i++) sched_yield();
	return 0;
}

static void *cpu(void *arg)
{
	uint64_t h = 1469598103934665603ull;
	for (long i = 0; i < n; i++) {
		for (int j = 0; j < 16; j++) {
			if (h & 1) h = (h ^ (uint64_t)j) * 1099511628211ull;
			else h = (h >> 1) ^ (uint64_t)i;
		}
	}
	sink = h;
	return 0;
}

static uint64_t table[4096];

static void *mem(void *arg)
{
	for (long i = 0; i < n; i++)
		for (int j = 0; j < 16; j++)
			table[(i * 16 + j) & 4095] += (uint64_t)j;
	return 0;
}

static void *idle(void *arg)
{
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	uint64_t t0;
	if (argc != 3) return 2;
	n = atol(argv[2]);
	if (!strcmp(argv[1], "yield")) {
		t0 = now();
		pthread_create(&a, 0, yielder, 0);
		pthread_create(&b, 0, yielder, 0);
		pthread_join(a, 0);
		pthread_join(b, 0);
		printf("yield %.1f\n", (double)(now() - t0) / (2.0 * n));
	} else {
		int m = !strcmp(argv[1], "mem");
		for (int i = 0; i < 4096; i++) table[i] = i;
		pthread_create(&b, 0, idle, 0);   /* threads exist: green is active */
		pthread_join(b, 0);
		t0 = now();
		pthread_create(&a, 0, m ? mem : cpu, 0);
		pthread_join(a, 0);
		printf("%s %.2f\n", argv[1], (double)(now() - t0) / n);
	}
	return 0;
}
