/*
 * m1tid.c — prints "same" if every thread runs on the kernel thread of
 * main (green: one kernel thread), "different" otherwise (1:1).  The
 * kernel thread is the one /proc/thread-self names: gettid() gives each
 * green thread an id of its own (docs/kernel.md).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void kernel_thread(char *buf, size_t n)
{
	ssize_t r = readlink("/proc/thread-self", buf, n - 1);
	buf[r < 0 ? 0 : r] = 0;
}

static void *tid(void *arg)
{
	kernel_thread(arg, 64);
	return 0;
}

int main(void)
{
	char mine[64], theirs[3][64];
	pthread_t t[3];
	int same = 1;

	kernel_thread(mine, sizeof mine);
	for (int i = 0; i < 3; i++)
		if (pthread_create(&t[i], 0, tid, theirs[i])) return 1;
	for (int i = 0; i < 3; i++) {
		pthread_join(t[i], 0);
		same &= *mine && !strcmp(theirs[i], mine);
	}
	puts(same ? "same" : "different");
	return 0;
}
