/*
 * newdtv — threads created before a dlopen, parked at a barrier across
 * it, then call into the loaded object, whose code reaches its TLS
 * through their DTVs (__tls_get_addr): each must have been given a DTV
 * with the new module.  A second object is loaded while they are parked
 * again, so every DTV grows twice; a thread created between the loads
 * sees both.  After libc-test's tls_get_new-dtv (the first half).
 */
#include "dyntest.h"

#define N 10
static pthread_barrier_t one, two;
static long (*f1)(void), (*f2)(void);

static void *work(void *a)
{
	int k = (int)(long)a;
	if (k <= N) pthread_barrier_wait(&one);   /* created before both loads */
	CHECK(f1() == 1001, "thread %d: the first object's TLS", k);
	CHECK(f1() == 2002, "thread %d: the first object's TLS, again", k);
	pthread_barrier_wait(&two);   /* every thread parked across the second load */
	CHECK(f2() == 2001, "thread %d: the second object's TLS", k);
	CHECK(f1() == 3003, "thread %d: the first object's TLS after the second load", k);
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t t[N + 1];
	pthread_barrier_init(&one, 0, N + 1);
	pthread_barrier_init(&two, 0, N + 2);
	for (long i = 0; i < N; i++) start(&t[i], work, (void *)(i + 1));
	f1 = (long (*)(void))sym(load(argv[1]), "f");
	pthread_barrier_wait(&one);
	start(&t[N], work, (void *)(N + 1));   /* between the loads */
	f2 = (long (*)(void))sym(load(argv[2]), "f");
	pthread_barrier_wait(&two);
	for (int i = 0; i <= N; i++) pthread_join(t[i], 0);
	CHECK(f1() == 1001 && f2() == 2001, "the loading thread's instances");
	return done();
}
