/*
 * counter — a loaded object's `__thread` counter used by 1,000 threads:
 * 500 created before the dlopen (blocked on a condition variable across
 * it), 500 after; each bumps its counter 100 times with yields between
 * and must end at 100 on an instance of its own.  Built with and without
 * a `__thread` variable of the program's own (-DOWN_TLS), so that both
 * of green's TCB modes are tested (src/core/stack/dtv.c).
 */
#include <sched.h>
#include <string.h>
#include "dyntest.h"

#define N 1000
#define BUMPS 100
#ifdef OWN_TLS
__thread int own = 1;
#endif
static long (*bump)(void);
static long *(*where)(void);
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int go;
static long *seen[N + 1];
static pthread_barrier_t counted;

static void *work(void *a)
{
	int k = (int)(long)a;
	long v = 0;
	pthread_mutex_lock(&m);
	while (!go) pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	for (int i = 0; i < BUMPS; i++) {
		v = bump();
		sched_yield();
	}
	CHECK(v == BUMPS, "thread %d counted %ld", k, v);
#ifdef OWN_TLS
	CHECK(own == 1, "thread %d: the program's own __thread variable", k);
#endif
	seen[k] = where();
	pthread_barrier_wait(&counted);   /* every instance alive until all are seen */
	return 0;
}

static int before(const void *a, const void *b)
{
	long *x = *(long *const *)a, *y = *(long *const *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static pthread_t t[N];
	void *h;
	pthread_barrier_init(&counted, 0, N + 1);
	for (long i = 0; i < N / 2; i++) start(&t[i], work, (void *)(i + 1));
	h = load(argv[1]);
	bump = (long (*)(void))sym(h, "bump");
	where = (long *(*)(void))sym(h, "where");
	for (long i = N / 2; i < N; i++) start(&t[i], work, (void *)(i + 1));
	pthread_mutex_lock(&m);
	go = 1;
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	CHECK(bump() == 1, "the loading thread's counter");
	seen[0] = where();
	pthread_barrier_wait(&counted);
	for (int i = 0; i < N; i++) pthread_join(t[i], 0);
	qsort(seen, N + 1, sizeof *seen, before);
	for (int i = 1; i <= N; i++) CHECK(seen[i] != seen[i - 1], "two threads share %p", (void *)seen[i]);
	return done();
}
