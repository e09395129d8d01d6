/*
 * c11.c — the C11 mutex entry points whose musl versions inline a
 * compare-and-swap on musl's own mutex layout.  The rest of <threads.h>
 * (thrd_*, cnd_*, tss_*, call_once) reaches the pthread functions through
 * musl's internal names and needs nothing here.
 */
#include <threads.h>
#include <errno.h>
#include "base/seam.h"

int __pthread_mutex_lock(pthread_mutex_t *);
int __pthread_mutex_trylock(pthread_mutex_t *);

int mtx_lock(mtx_t *m)
{
	return __pthread_mutex_lock((pthread_mutex_t *)m) ? thrd_error : thrd_success;
}

int mtx_trylock(mtx_t *m)
{
	switch (__pthread_mutex_trylock((pthread_mutex_t *)m)) {
	case 0: return thrd_success;
	case EBUSY: return thrd_busy;
	default: return thrd_error;
	}
}
