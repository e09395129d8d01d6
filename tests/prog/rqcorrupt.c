/*
 * rqcorrupt.c — a run-queue link broken on purpose.  Two threads wait
 * on the run queue; main makes the first one's q_next point to itself,
 * as a stray write could, then yields.  Under GREEN_DEBUG=checks the
 * switch that follows must report the broken invariant, naming the
 * thread, and abort (tests/prog/programs.sh); without the checks the queue
 * would cycle and the program would spin or crash far from the write.
 * The descriptor's layout comes from the table gdb reads
 * (src/core/diag/gdb_layout.c): `pthread_t` is the descriptor.
 * Green mode only.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

struct layout_entry {
	const char *name;
	unsigned long value, size;
};
extern const struct layout_entry __green_debug[] __attribute__((weak));   /* none in 1:1 mode */

static unsigned long layout(const char *name)
{
	for (const struct layout_entry *e = __green_debug; e && e->name; e++)
		if (!strcmp(e->name, name)) return e->value;
	fprintf(stderr, "rqcorrupt: no %s in the layout table\n", name);
	return (unsigned long)-1;
}

static void *idle(void *arg) { return arg; }

int main(void)
{
	pthread_t a, b;
	unsigned long q_next = layout("thread.q_next");

	if (q_next == (unsigned long)-1) return 2;
	if (pthread_create(&a, 0, idle, 0) || pthread_create(&b, 0, idle, 0)) return 2;
	pthread_setname_np(a, "victim");
	*(void **)((char *)a + q_next) = (void *)a;   /* the stray write */
	sched_yield();
	puts("the broken link went unnoticed");
	return 0;
}
