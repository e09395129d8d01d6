/*
 * spinners.h — two threads that compute without ever yielding (no
 * sched_yield, no library call), each watching the other's progress.
 * Shared by check_signal.c and prog/preempt.c.
 *
 * Every SPIN_LOOK iterations a spinner looks at the other's counter;
 * spinner.changes counts the looks at which the other had advanced since
 * the previous one: the other ran while this one was alive and
 * unfinished.  On one CPU without time slicing a spinner never gives the
 * CPU up, so spinners_stop() must come from a thread that can run anyway
 * (a sleeper woken by preemption).
 */
#ifndef GREEN_SPINNERS_H
#define GREEN_SPINNERS_H

#include <pthread.h>

#define SPIN_LOOK 4096

struct spinner {
	pthread_t t;
	unsigned long n;           /* iterations (atomic) */
	unsigned long last_seen;   /* the other's count at the previous look */
	unsigned long changes;     /* looks that found the other advanced */
};
static struct spinner spinners[2];
static int spin_stop;

static void *spin(void *arg)
{
	struct spinner *me = arg, *other = &spinners[me == &spinners[0]];
	unsigned long n = 0, o;
	int looked = 0;

	while (!__atomic_load_n(&spin_stop, __ATOMIC_RELAXED)) {
		__atomic_store_n(&me->n, ++n, __ATOMIC_RELAXED);
		if (n % SPIN_LOOK == 0) {
			o = __atomic_load_n(&other->n, __ATOMIC_RELAXED);
			/* from the second look on: the other ran since my first */
			if (looked && o != me->last_seen) me->changes++;
			me->last_seen = o;
			looked = 1;
		}
	}
	return 0;
}

/* 0, or pthread_create's error */
static int spinners_start(void)
{
	int e;
	spin_stop = 0;
	for (int i = 0; i < 2; i++) {
		spinners[i].n = spinners[i].last_seen = spinners[i].changes = 0;
		if ((e = pthread_create(&spinners[i].t, 0, spin, &spinners[i]))) return e;
	}
	return 0;
}

static void spinners_stop(void)
{
	__atomic_store_n(&spin_stop, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < 2; i++) pthread_join(spinners[i].t, 0);
}

#endif
