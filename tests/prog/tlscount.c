/*
 * tlscount.c — three threads count to 1000 in one `static __thread`
 * counter, yielding as they go; each must see 1000 and main 0: prints
 * "1000 1000 1000 0".  Where green cannot make `__thread` per thread
 * (the SPARC overlay, docs/ports.md) pthread_create must refuse rather
 * than let the threads share one counter: the program prints the error
 * and exits 3.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>

static __thread int counter;

static void *count(void *arg)
{
	for (int i = 0; i < 1000; i++) {
		counter++;
		if (i % 10 == 0) sched_yield();
	}
	return (void *)(long)counter;
}

int main(void)
{
	pthread_t t[3];
	void *r[3];
	int e;

	for (int i = 0; i < 3; i++) {
		if ((e = pthread_create(&t[i], 0, count, 0))) {
			printf("pthread_create: %s\n", e == ENOTSUP ? "ENOTSUP" : strerror(e));
			return 3;
		}
	}
	for (int i = 0; i < 3; i++)
		if (pthread_join(t[i], &r[i])) return 1;
	printf("%ld %ld %ld %d\n", (long)r[0], (long)r[1], (long)r[2], counter);
	return 0;
}
