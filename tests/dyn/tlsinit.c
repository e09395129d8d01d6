/*
 * tlsinit — each thread's instance of a loaded object's `__thread` data
 * starts from the object's TLS image (.tdata values, .tbss zero): in
 * the thread that loaded it, in threads created before the load (parked
 * across it) and after, and stays the thread's own while the others
 * write theirs, through yields.  After libc-test's tls_init_dlopen.
 */
#include <sched.h>
#include "dyntest.h"

#define N 8
static int (*fresh)(void);
static void (*mark)(int);
static int (*marked)(int);
static pthread_barrier_t loaded, marked_all;

static void *work(void *a)
{
	int k = (int)(long)a;
	if (k <= N) pthread_barrier_wait(&loaded);
	CHECK(fresh() == 0, "thread %d starts from %d", k, fresh());
	mark(k);
	pthread_barrier_wait(&marked_all);   /* every thread has written its own */
	for (int i = 0; i < 20; i++) {
		CHECK(marked(k), "thread %d lost its values", k);
		sched_yield();
	}
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t t[2 * N];
	void *h;
	pthread_barrier_init(&loaded, 0, N + 1);
	pthread_barrier_init(&marked_all, 0, 2 * N + 1);
	for (long i = 0; i < N; i++) start(&t[i], work, (void *)(i + 1));
	h = load(argv[1]);
	fresh = sym(h, "fresh");
	mark = sym(h, "mark");
	marked = sym(h, "marked");
	CHECK(fresh() == 0, "the loading thread starts from %d", fresh());
	pthread_barrier_wait(&loaded);
	for (long i = N; i < 2 * N; i++) start(&t[i], work, (void *)(i + 1));
	mark(1000);
	pthread_barrier_wait(&marked_all);
	for (int i = 0; i < 2 * N; i++) pthread_join(t[i], 0);
	CHECK(marked(1000), "the loading thread lost its values");
	return done();
}
