/*
 * stacksize.c — a thread's stack is the size asked for, and the default
 * is glibc's (docs/stacks.md).
 *
 *   stacksize fit        a thread asked for 64 KiB uses all but 2 KiB of
 *                        it: no fault ("ok")
 *   stacksize over       the same thread runs one page past the 64 KiB:
 *                        it must fault in the guard, and green names it
 *                        ("tight" ... overflowed its stack)
 *   stacksize deep       a thread created without attributes uses 1 MiB
 *                        of stack, as glibc-era programs do ("ok")
 *   stacksize default    the default size an attribute reports is
 *                        glibc's on a 64-bit CPU: RLIMIT_STACK's soft
 *                        limit, or 2 MiB where it is unlimited; musl's
 *                        128 KiB on a 32-bit one ("default N")
 *
 * How deep a thread has gone is measured from its first frame's address,
 * so the figures hold whatever the frames' layout.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define ASKED (64 * 1024)

static char *start;             /* the thread's first frame */
static size_t target;           /* how deep to go */

static __attribute__((noinline)) int dig(int n)
{
	volatile char frame[512];
	size_t used = (size_t)(start - (char *)frame);

	frame[0] = (char)n;
	frame[511] = (char)n;
	if (used + sizeof frame >= target) return frame[0];
	return dig(n + 1) + frame[0] + frame[511];
}

static void *run(void *arg)
{
	volatile char here;

	(void)arg;
	start = (char *)&here;
	dig(0);
	return 0;
}

static void *deep(void *arg)
{
	volatile char big[1 << 20];

	(void)arg;
	memset((char *)big, 1, sizeof big);
	return (void *)(long)big[12345];
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "fit";
	pthread_attr_t a;
	pthread_t t;
	size_t size = 0;

	pthread_attr_init(&a);
	if (!strcmp(mode, "default")) {
		struct rlimit rl;
		size_t want = 128 * 1024;

		pthread_attr_getstacksize(&a, &size);
		if (sizeof(void *) == 8) {
			want = 2 << 20;
			if (!getrlimit(RLIMIT_STACK, &rl) && rl.rlim_cur != RLIM_INFINITY) want = rl.rlim_cur;
		}
		printf("default %zu\n", size);
		return size == want ? 0 : 1;
	}
	if (!strcmp(mode, "deep")) {
		if (pthread_create(&t, 0, deep, 0) || pthread_join(t, 0)) return 2;
		puts("ok");
		return 0;
	}
	target = !strcmp(mode, "over") ? ASKED + 4096 : ASKED - 2048;
	pthread_attr_setstacksize(&a, ASKED);
	if (pthread_create(&t, &a, run, 0)) return 2;
	pthread_setname_np(t, "tight");
	if (pthread_join(t, 0)) return 2;
	puts("ok");
	return 0;
}
