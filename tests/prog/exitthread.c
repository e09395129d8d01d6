/*
 * exitthread.c — a thread other than main calls exit(5) while main waits
 * in pthread_join: the process exits with status 5 after running its
 * atexit handlers.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void at_exit(void)
{
	puts("atexit handler ran");
}

static void *quit(void *arg)
{
	puts("thread calls exit");
	exit(5);
}

int main(void)
{
	pthread_t t;

	atexit(at_exit);
	if (pthread_create(&t, 0, quit, 0)) return 1;
	pthread_join(t, 0);
	puts("not reached");
	return 0;
}
