/*
 * tlsalign — every thread's instance of a loaded object's `__thread`
 * variables is aligned as the variable asks (up to a page), in the
 * thread that loaded it, in threads created before the load (parked
 * across it) and after; no two threads share an instance.  After
 * libc-test's tls_align_dlopen, which looks from the main thread only.
 */
#include "dyntest.h"

#define N 8
struct var {
	const char *name;
	unsigned long size, align, addr;
};
static int (*vars)(struct var *);
static pthread_barrier_t loaded, looked;
static unsigned long first[2 * N + 1];   /* each thread's instance of xchar */

static void look(int who)
{
	struct var v[8];
	int n = vars(v);
	for (int i = 0; i < n; i++)
		CHECK(!(v[i].addr & (v[i].align - 1)), "thread %d: %s (size %lu, align %lu) at %#lx",
		      who, v[i].name, v[i].size, v[i].align, v[i].addr);
	first[who] = v[0].addr;
	pthread_barrier_wait(&looked);   /* every instance alive until all are seen */
}

static void *before(void *a)
{
	pthread_barrier_wait(&loaded);   /* parked across the dlopen */
	look((int)(long)a);
	return 0;
}

static void *after(void *a)
{
	look((int)(long)a);
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t t[2 * N];
	pthread_barrier_init(&loaded, 0, N + 1);
	pthread_barrier_init(&looked, 0, 2 * N + 1);
	for (long i = 0; i < N; i++) start(&t[i], before, (void *)(i + 1));
	vars = sym(load(argv[1]), "vars");
	pthread_barrier_wait(&loaded);
	for (long i = N; i < 2 * N; i++) start(&t[i], after, (void *)(i + 1));
	look(0);
	for (int i = 0; i < 2 * N; i++) pthread_join(t[i], 0);
	for (int i = 0; i <= 2 * N; i++)
		for (int j = 0; j < i; j++)
			CHECK(first[i] != first[j], "threads %d and %d share an instance", i, j);
	return done();
}
