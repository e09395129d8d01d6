/*
 * ctor.c — a constructor creates and joins a thread before main runs (so
 * the library starts from a constructor); main then creates more.
 */
#include <pthread.h>
#include <stdio.h>

static int from_ctor;

static void *add(void *arg)
{
	__atomic_add_fetch((int *)arg, 1, __ATOMIC_SEQ_CST);
	return arg;
}

__attribute__((constructor)) static void early(void)
{
	pthread_t t;
	void *res = 0;
	if (pthread_create(&t, 0, add, &from_ctor) || pthread_join(t, &res) || res != &from_ctor)
		from_ctor = -100;
}

int main(void)
{
	pthread_t t[4];
	int n = 0;

	printf("ctor %d\n", from_ctor);
	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], 0, add, &n)) return 1;
	for (int i = 0; i < 4; i++)
		if (pthread_join(t[i], 0)) return 1;
	printf("main %d\n", n);
	return 0;
}
