/*
 * hotring.c — N threads take turns by sched_yield, R rounds, each with
 * 2 KiB of its own bytes live on its stack; every thread checks its
 * bytes at the end.  Prints "ok" if all were intact.
 *
 *   hotring N R
 *
 * With copied stacks and more threads than the hot set, every switch
 * loads an evicted stack until the hot set grows to hold them all
 * (docs/stacks.md): tests/prog/programs.sh counts the system calls that load.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long rounds;
static int started, total;

static void *body(void *arg)
{
	unsigned char mine[2048];
	unsigned fill = (unsigned)(uintptr_t)arg;

	for (size_t i = 0; i < sizeof mine; i++) mine[i] = (unsigned char)(fill + i);
	__asm__ __volatile__("" :: "r"(mine) : "memory");
	__atomic_add_fetch(&started, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&started, __ATOMIC_RELAXED) < total) sched_yield();
	for (long r = 0; r < rounds; r++) sched_yield();
	for (size_t i = 0; i < sizeof mine; i++)
		if (mine[i] != (unsigned char)(fill + i)) return (void *)1;
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t *t;
	int bad = 0;
	void *r;

	total = argc > 1 ? atoi(argv[1]) : 100;
	rounds = argc > 2 ? atol(argv[2]) : 10;
	if (total < 1 || !(t = calloc(total, sizeof *t))) return 2;
	for (int i = 0; i < total; i++)
		if (pthread_create(&t[i], 0, body, (void *)(uintptr_t)(i * 7))) return 2;
	for (int i = 0; i < total; i++) {
		pthread_join(t[i], &r);
		bad += r != 0;
	}
	puts(bad ? "wrong" : "ok");
	return bad != 0;
}
