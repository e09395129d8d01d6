/* racy: a use after free across threads: the main thread frees a block
 * that a worker reads later with nothing ordering the two (the flag is
 * relaxed) (tests/race/race.sh) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct job { long id, result; };
struct job *job;
atomic_int freed;

__attribute__((noinline)) static long use_job(struct job *j)
{
	return j->id;
}

static void *worker(void *arg)
{
	pthread_setname_np(pthread_self(), "late-reader");
	while (!atomic_load_explicit(&freed, memory_order_relaxed)) sched_yield();
	printf("id %ld\n", use_job(job));
	return 0;
}

__attribute__((noinline)) static void retire_job(void)
{
	free(job);
	atomic_store_explicit(&freed, 1, memory_order_relaxed);
}

int main(void)
{
	pthread_t t;
	job = malloc(sizeof *job);
	job->id = 7;
	pthread_create(&t, 0, worker, 0);
	retire_job();
	pthread_join(t, 0);
	return 0;
}
