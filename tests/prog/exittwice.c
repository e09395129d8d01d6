/*
 * exittwice.c — main and four threads call exit() at about the same
 * time.  One of them runs the exit; the others must wait for the
 * process's end (glibc's behaviour; src/core/thread/procexit.c), not run
 * the destructors a second time, which this destructor would notice
 * (it yields, so that another thread calls exit() while it runs).  The
 * process ends with status 3.  tests/prog/programs.sh runs it plainly and
 * under seeded schedules, in both stack modes.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

static int runs;

__attribute__((destructor)) static void fini(void)
{
	if (++runs > 1) {
		fputs("the destructors ran twice\n", stderr);
		abort();
	}
	sched_yield();   /* another thread may call exit() now */
	sched_yield();
}

static void *quit(void *arg)
{
	(void)arg;
	sched_yield();
	exit(3);
}

int main(void)
{
	pthread_t t[4];

	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], 0, quit, 0)) return 2;
	sched_yield();
	exit(3);
}
