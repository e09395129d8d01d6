/* racy: data published behind a flag stored and loaded with relaxed
 * order, not release/acquire: the flag itself is atomic (no race on it),
 * the data is not ordered by it (tests/race/race.sh) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

int data;
atomic_int ready;

__attribute__((noinline)) static void publish(void)
{
	data = 42;
	atomic_store_explicit(&ready, 1, memory_order_relaxed);
}

__attribute__((noinline)) static int consume(void)
{
	while (!atomic_load_explicit(&ready, memory_order_relaxed)) sched_yield();
	return data;
}

static void *producer(void *arg)
{
	pthread_setname_np(pthread_self(), "producer");
	publish();
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, producer, 0);
	printf("data %d\n", consume());
	pthread_join(t, 0);
	return 0;
}
