/*
 * deadlock.c — a lock-order deadlock between two threads.  Green mode
 * must notice that nothing can ever run again, describe both threads on
 * stderr ("green: deadlock ...") and abort.  (In 1:1 mode it hangs.)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
static volatile int holds_b;

static void *take_b_then_a(void *arg)
{
	pthread_mutex_lock(&b);
	holds_b = 1;
	pthread_mutex_lock(&a);
	return 0;
}

int main(void)
{
	pthread_t t;

	pthread_setname_np(pthread_self(), "lock-main");
	pthread_mutex_lock(&a);
	if (pthread_create(&t, 0, take_b_then_a, 0)) return 1;
	pthread_setname_np(t, "lock-worker");
	while (!holds_b) sched_yield();
	pthread_mutex_lock(&b);
	puts("not reached");
	return 0;
}
