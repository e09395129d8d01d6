/*
 * m1tid.c — prints "same" if every thread's gettid() is the process id
 * (green: one kernel thread), "different" otherwise (1:1).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *tid(void *arg)
{
	*(pid_t *)arg = gettid();
	return 0;
}

int main(void)
{
	pid_t tids[3];
	pthread_t t[3];
	int same = gettid() == getpid();

	for (int i = 0; i < 3; i++)
		if (pthread_create(&t[i], 0, tid, &tids[i])) return 1;
	for (int i = 0; i < 3; i++) {
		pthread_join(t[i], 0);
		same &= tids[i] == getpid();
	}
	puts(same ? "same" : "different");
	return 0;
}
