/*
 * overflow.c — a thread with a 64 KiB stack recurses without bound.
 * Green mode must name the thread on stderr ("... overflowed its stack")
 * before the process dies of SIGSEGV.
 *
 * overflow wild: the thread stores through a wild pointer instead; green
 * names it ("... received SIGSEGV") and the process dies of SIGSEGV.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

static volatile int bottom = -1;   /* never reached: the recursion is unbounded */

static int deeper(int n)
{
	volatile char frame[256];
	if (n == bottom) return 0;
	frame[0] = (char)n;
	frame[255] = (char)n;
	return deeper(n + 1) + frame[0] + frame[255];
}

static void *recurse(void *arg)
{
	if (arg) {
		*(volatile int *)arg = 1;
		return 0;
	}
	return (void *)(long)deeper(0);
}

int main(int argc, char **argv)
{
	void *wild = argc > 1 ? (void *)(long)16 : 0;

	pthread_attr_t attr;
	pthread_t t;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	if (pthread_create(&t, &attr, recurse, wild)) return 1;
	pthread_setname_np(t, "deep-diver");
	pthread_join(t, 0);
	puts("not reached");
	return 0;
}
