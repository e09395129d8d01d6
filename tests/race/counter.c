/* racy: two threads increment a counter without a lock: one report,
 * bump() in both stacks, on the global "counter" (tests/race/race.sh) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sched.h>

int counter;

__attribute__((noinline)) static void bump(void)
{
	counter++;
}

static void *incr(void *arg)
{
	pthread_setname_np(pthread_self(), arg);
	for (int i = 0; i < 1000; i++) {
		bump();
		if (i % 100 == 0) sched_yield();
	}
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, incr, "incr-a");
	pthread_create(&b, 0, incr, "incr-b");
	pthread_join(a, 0);
	pthread_join(b, 0);
	printf("counter %d\n", counter);
	return 0;
}
