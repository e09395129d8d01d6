/*
 * where — prints where the program's code, data, heap, stack and
 * thread-local data lie, one line; run twice, a position-independent
 * executable (green-cc --dynamic, or -static-pie) must print two
 * different lines: the kernel chose its place each time
 * (tests/dyn/dynamic.sh).  A thread prints its stack and TLS too.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int data = 1;
static __thread int tls;

static void *thread(void *arg)
{
	int local;
	printf(" thread-stack=%p thread-tls=%p", (void *)&local, (void *)&tls);
	return arg;
}

int main(void)
{
	int local;
	pthread_t t;
	void *heap = malloc(16);
	printf("code=%p data=%p heap=%p stack=%p tls=%p", (void *)main, (void *)&data, heap,
	       (void *)&local, (void *)&tls);
	pthread_create(&t, 0, thread, 0);
	pthread_join(t, 0);
	putchar('\n');
	free(heap);
	return 0;
}
