/*
 * manythreads.c — N threads parked on one condition variable at once.
 *
 *   manythreads N [copied|separate]
 *
 * Creates N threads with the given stack mode that all wait on one
 * condition variable, prints the resident size with all of them parked
 * and the bytes per parked thread, then wakes and joins them all.  Exit
 * status 0 only if every thread was created, woke and was joined.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static long parked, woke;
static int go;

static void *waiter(void *arg)
{
	pthread_mutex_lock(&m);
	parked++;
	while (!go) pthread_cond_wait(&c, &m);
	woke++;
	pthread_mutex_unlock(&m);
	return 0;
}

static long rss_kib(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f && fscanf(f, "%ld %ld", &pages, &rss) != 2) rss = 0;
	if (f) fclose(f);
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000, i;
	int copied = argc < 3 || !strcmp(argv[2], "copied");
	pthread_t *t = calloc(n, sizeof *t);
	pthread_attr_t a;
	long before = rss_kib(), during;

	pthread_attr_init(&a);
#if __GREEN_THREADS__
	pthread_attr_setstackmode_np(&a, copied ? PTHREAD_STACK_COPIED_NP : PTHREAD_STACK_SEPARATE_NP);
#endif
	if (!copied) pthread_attr_setstacksize(&a, 16384);
	for (i = 0; i < n; i++) {
		int r = pthread_create(&t[i], &a, waiter, 0);
		if (r) {
			fprintf(stderr, "manythreads: thread %ld: %s\n", i, strerror(r));
			return 1;
		}
		if (i % 1000 == 999) sched_yield();   /* let them park as we go */
	}
	pthread_mutex_lock(&m);
	while (parked < n) {
		pthread_mutex_unlock(&m);
		sched_yield();
		pthread_mutex_lock(&m);
	}
	during = rss_kib();
	go = 1;
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	for (i = 0; i < n; i++) pthread_join(t[i], 0);
	printf("%ld threads parked (%s stacks): resident %ld KiB, %.0f bytes per parked thread\n",
	       n, copied ? "copied" : "separate", during,
	       (during - before) * 1024.0 / n);
	return woke == n ? 0 : 1;
}
