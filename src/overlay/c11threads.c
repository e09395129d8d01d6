/*
 * c11.c — <threads.h> in the overlay.  glibc's C11 threads call glibc's
 * own pthread internals (so thrd_create would make a kernel thread); here
 * they map onto green's pthreads, as musl's do in the normal build.
 * (thrd_current, thrd_detach, thrd_yield, tss_get, tss_set, mtx_lock
 * and mtx_trylock are green's already: src/core.)
 */
#include <threads.h>
#include <time.h>
#include <stdint.h>
#include "base/seam.h"

static int c11(int r)
{
	switch (r) {
	case 0: return thrd_success;
	case ETIMEDOUT: return thrd_timedout;
	case EBUSY: return thrd_busy;
	case EAGAIN: case ENOMEM: return thrd_nomem;
	default: return thrd_error;
	}
}

int thrd_create(thrd_t *t, thrd_start_t f, void *arg)
{
	return c11(__pthread_create(t, GREEN_C11_ATTR, (void *(*)(void *))(void *)f, arg));
}

_Noreturn void thrd_exit(int res)
{
	__pthread_exit((void *)(intptr_t)res);
}

int thrd_join(thrd_t t, int *res)
{
	void *p;
	if (__pthread_join(t, &p)) return thrd_error;
	if (res) *res = (int)(intptr_t)p;
	return thrd_success;
}

int thrd_sleep(const struct timespec *req, struct timespec *rem)
{
	switch (clock_nanosleep(CLOCK_REALTIME, 0, req, rem)) {
	case 0: return 0;
	case EINTR: return -1;
	default: return -2;
	}
}

int mtx_init(mtx_t *m, int type)
{
	pthread_mutexattr_t a;
	int r;
	pthread_mutexattr_init(&a);
	if (type & mtx_recursive) pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	r = pthread_mutex_init((pthread_mutex_t *)m, &a);
	pthread_mutexattr_destroy(&a);
	return c11(r);
}

int mtx_timedlock(mtx_t *restrict m, const struct timespec *restrict at)
{
	return c11(__pthread_mutex_timedlock((pthread_mutex_t *)m, at));
}

int mtx_unlock(mtx_t *m)
{
	return c11(__pthread_mutex_unlock((pthread_mutex_t *)m));
}

void mtx_destroy(mtx_t *m)
{
	pthread_mutex_destroy((pthread_mutex_t *)m);
}

int cnd_init(cnd_t *c)
{
	return c11(pthread_cond_init((pthread_cond_t *)c, 0));
}

int cnd_signal(cnd_t *c)
{
	return c11(pthread_cond_signal((pthread_cond_t *)c));
}

int cnd_broadcast(cnd_t *c)
{
	return c11(pthread_cond_broadcast((pthread_cond_t *)c));
}

int cnd_wait(cnd_t *c, mtx_t *m)
{
	return c11(pthread_cond_wait((pthread_cond_t *)c, (pthread_mutex_t *)m));
}

int cnd_timedwait(cnd_t *restrict c, mtx_t *restrict m, const struct timespec *restrict at)
{
	return c11(pthread_cond_timedwait((pthread_cond_t *)c, (pthread_mutex_t *)m, at));
}

void cnd_destroy(cnd_t *c)
{
	pthread_cond_destroy((pthread_cond_t *)c);
}

int tss_create(tss_t *k, tss_dtor_t dtor)
{
	return __pthread_key_create(k, dtor) ? thrd_error : thrd_success;
}

void tss_delete(tss_t k)
{
	__pthread_key_delete(k);
}

void call_once(once_flag *flag, void (*f)(void))
{
	__pthread_once((pthread_once_t *)(void *)flag, f);
}
