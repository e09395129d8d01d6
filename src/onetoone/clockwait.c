/*
 * clock.c — 1:1 mode only: the POSIX 2024 waits on a chosen clock that
 * musl 1.2.3 lacks, built on musl's timed waits.  A CLOCK_MONOTONIC
 * deadline is translated to the clock musl waits on (CLOCK_REALTIME, or
 * a condition variable's own clock) once, at the call: a step of the
 * realtime clock during the wait moves it (documented in docs/posix.md).
 * Green mode has its own versions (src/core).
 */
#include "pthread_impl.h"
#include <semaphore.h>
#include <errno.h>

static long long ns(const struct timespec *t)
{
	return t->tv_sec * 1000000000LL + t->tv_nsec;
}

/* at on clock from, as a time on clock to */
static int translate(clockid_t from, clockid_t to, const struct timespec *at, struct timespec *out)
{
	struct timespec f, t;
	long long d;

	if (from != CLOCK_REALTIME && from != CLOCK_MONOTONIC) return EINVAL;
	if (!at || from == to) {
		if (at) *out = *at;
		return 0;
	}
	if (at->tv_nsec < 0 || at->tv_nsec >= 1000000000L) return EINVAL;
	clock_gettime(from, &f);
	clock_gettime(to, &t);
	d = ns(at) - ns(&f) + ns(&t);
	if (d < 0) d = 0;
	out->tv_sec = d / 1000000000LL;
	out->tv_nsec = d % 1000000000LL;
	return 0;
}

int pthread_mutex_clocklock(pthread_mutex_t *restrict m, clockid_t clk,
                            const struct timespec *restrict at)
{
	struct timespec rt;
	int r = translate(clk, CLOCK_REALTIME, at, &rt);
	return r ? r : pthread_mutex_timedlock(m, at ? &rt : 0);
}

int pthread_cond_clockwait(pthread_cond_t *restrict c, pthread_mutex_t *restrict m,
                           clockid_t clk, const struct timespec *restrict at)
{
	struct timespec t;
	int r = translate(clk, c->_c_clock, at, &t);
	return r ? r : pthread_cond_timedwait(c, m, at ? &t : 0);
}

int pthread_rwlock_clockrdlock(pthread_rwlock_t *restrict l, clockid_t clk,
                               const struct timespec *restrict at)
{
	struct timespec rt;
	int r = translate(clk, CLOCK_REALTIME, at, &rt);
	return r ? r : pthread_rwlock_timedrdlock(l, at ? &rt : 0);
}

int pthread_rwlock_clockwrlock(pthread_rwlock_t *restrict l, clockid_t clk,
                               const struct timespec *restrict at)
{
	struct timespec rt;
	int r = translate(clk, CLOCK_REALTIME, at, &rt);
	return r ? r : pthread_rwlock_timedwrlock(l, at ? &rt : 0);
}

int sem_clockwait(sem_t *restrict s, clockid_t clk, const struct timespec *restrict at)
{
	struct timespec rt;
	int r = translate(clk, CLOCK_REALTIME, at, &rt);
	if (r) {
		errno = r;
		return -1;
	}
	return sem_timedwait(s, &rt);
}
