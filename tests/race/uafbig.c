/* racy: a use after free deep inside a large block: the main thread
 * writes a job at 40000 bytes into a 64 KiB block and frees the block,
 * which a worker then reads there with nothing ordering the two; the
 * freed mark of a granule the program accessed must reach it past the
 * block's first KiB (tests/race/race.sh) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define AT 40000

struct job { long id, result; };
char *block;
atomic_int freed;

__attribute__((noinline)) static long use_job(struct job *j)
{
	return j->id;
}

static void *worker(void *arg)
{
	while (!atomic_load_explicit(&freed, memory_order_relaxed)) sched_yield();
	printf("id %ld\n", use_job((struct job *)(block + AT)));
	return 0;
}

int main(void)
{
	pthread_t t;
	block = malloc(65536);
	((struct job *)(block + AT))->id = 7;
	pthread_create(&t, 0, worker, 0);
	free(block);
	atomic_store_explicit(&freed, 1, memory_order_relaxed);
	pthread_join(t, 0);
	return 0;
}
