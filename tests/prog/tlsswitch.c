/*
 * tlsswitch.c — two threads take turns 1000 times (500 sched_yield
 * each; the other thread is always runnable, so every yield is a switch)
 * and check after every turn that their `__thread` variable and errno
 * are still their own: prints "tlsswitch 1000 ok".  tests/prog/tp-syscalls.sh
 * runs it under a system-call trace: on m68k green reads and moves the
 * thread pointer without a system call (docs/ports.md).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

__thread long mine;   /* not static: sched_yield might, for all GCC knows, change it */

struct tally { long id; int turns, bad; };

static void *take_turns(void *arg)
{
	struct tally *t = arg;
	for (int i = 0; i < 500; i++) {
		mine = t->id * 1000 + i;
		errno = (int)mine;
		sched_yield();
		if (mine != t->id * 1000 + i || errno != (int)mine) t->bad++;
		t->turns++;
	}
	return 0;
}

int main(void)
{
	struct tally t[2] = { { .id = 1 }, { .id = 2 } };
	pthread_t th[2];

	for (int i = 0; i < 2; i++)
		if (pthread_create(&th[i], 0, take_turns, &t[i])) return 2;
	for (int i = 0; i < 2; i++) pthread_join(th[i], 0);
	printf("tlsswitch %d %s\n", t[0].turns + t[1].turns, t[0].bad + t[1].bad ? "BAD" : "ok");
	return t[0].bad + t[1].bad != 0;
}
