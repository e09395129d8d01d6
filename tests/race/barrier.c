/* race-free: phases separated by a barrier: in each phase every thread
 * writes its own cell, and after the barrier reads its neighbours'
 * (tests/race/race.sh) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define PHASES 50
static pthread_barrier_t bar;
static long cell[THREADS], check[THREADS];

static void *phase_worker(void *arg)
{
	long id = (long)arg;
	for (int p = 0; p < PHASES; p++) {
		cell[id] = p * 100 + id;
		pthread_barrier_wait(&bar);
		check[id] += cell[(id + 1) % THREADS] - p * 100;
		pthread_barrier_wait(&bar);
	}
	return 0;
}

int main(void)
{
	pthread_t t[THREADS];
	long total = 0;
	pthread_barrier_init(&bar, 0, THREADS);
	for (long i = 0; i < THREADS; i++) pthread_create(&t[i], 0, phase_worker, (void *)i);
	for (int i = 0; i < THREADS; i++) pthread_join(t[i], 0);
	for (int i = 0; i < THREADS; i++) total += check[i];
	pthread_barrier_destroy(&bar);
	printf("total %ld\n", total);
	return total != PHASES * (long)(THREADS * (THREADS - 1) / 2 + 0) ? 1 : 0;
}
