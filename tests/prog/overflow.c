/*
 * overflow.c — a thread with a 64 KiB stack recurses without bound.
 * Green mode must name the thread on stderr ("... overflowed its stack")
 * before the process dies of SIGSEGV.
 *
 * overflow wild: the thread stores through a wild pointer instead; green
 * names it ("... received SIGSEGV") and the process dies of SIGSEGV.
 *
 * overflow handler: main installs a SIGSEGV handler (on an alternate
 * stack) after the thread exists; green still names the overflowing
 * thread, then the handler runs ("handler", exit status 7).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile int bottom = -1;   /* never reached: the recursion is unbounded */

static int deeper(int n)
{
	volatile char frame[256];
	if (n == bottom) return 0;
	frame[0] = (char)n;
	frame[255] = (char)n;
	return deeper(n + 1) + frame[0] + frame[255];
}

/* the thread starts once main has done its part (handler mode) */
static pthread_mutex_t go = PTHREAD_MUTEX_INITIALIZER;

static void *recurse(void *arg)
{
	pthread_mutex_lock(&go);
	pthread_mutex_unlock(&go);
	if (arg) {
		*(volatile int *)arg = 1;
		return 0;
	}
	return (void *)(long)deeper(0);
}

static void handler(int sig)
{
	write(2, "handler\n", 8);
	_exit(7);
}

int main(int argc, char **argv)
{
	int wild_mode = argc > 1 && !strcmp(argv[1], "wild");
	int handler_mode = argc > 1 && !strcmp(argv[1], "handler");
	void *wild = wild_mode ? (void *)(long)16 : 0;
	static char altstack[65536];
	pthread_attr_t attr;
	pthread_t t;

	pthread_mutex_lock(&go);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	if (pthread_create(&t, &attr, recurse, wild)) return 1;
	pthread_setname_np(t, "deep-diver");
	if (handler_mode) {
		stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack };
		struct sigaction sa = { .sa_handler = handler, .sa_flags = SA_ONSTACK };
		if (sigaltstack(&ss, 0) || sigaction(SIGSEGV, &sa, 0)) return 1;
	}
	pthread_mutex_unlock(&go);
	pthread_join(t, 0);
	puts("not reached");
	return 0;
}
