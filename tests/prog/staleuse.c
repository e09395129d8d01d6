/*
 * staleuse.c — a program with a bug green's debug mode must name: a
 * thread hands out the address of one of its locals and exits, and its
 * joiner writes through that address later.  With kernel threads, and
 * with green normally, the write lands in released memory and nothing
 * is said; with GREEN_DEBUG=1 it faults, and green names the writer and
 * the exited thread (tests/prog/programs.sh).  (On copied stacks the local
 * lies in the shared region, which stays in use: nothing to catch.)
 */
#include <pthread.h>
#include <stdio.h>

static void *leaker(void *arg)
{
	int local = 42;
	pthread_setname_np(pthread_self(), "leaker");
	*(int *volatile *)arg = &local;   /* the bug: a local's address escapes */
	return 0;
}

int main(void)
{
	pthread_t t;
	int *volatile p = 0;

	pthread_create(&t, 0, leaker, (void *)&p);
	pthread_join(t, 0);
	*p = 7;   /* the thread and its stack are gone */
	printf("wrote through a stale pointer\n");
	return 0;
}
