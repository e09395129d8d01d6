/*
 * pthread_mutex_getprioceiling, pthread_mutex_setprioceiling — glibc's
 * read glibc's mutex layout.  green refuses PTHREAD_PRIO_PROTECT at
 * pthread_mutex_init, so no green mutex has a ceiling: EINVAL, as POSIX
 * says for a mutex whose protocol is not PTHREAD_PRIO_PROTECT.
 */
#include <pthread.h>
#include <errno.h>

int pthread_mutex_getprioceiling(const pthread_mutex_t *restrict m, int *restrict ceiling)
{
	(void)m;
	(void)ceiling;
	return EINVAL;
}

int pthread_mutex_setprioceiling(pthread_mutex_t *restrict m, int ceiling, int *restrict old)
{
	(void)m;
	(void)ceiling;
	(void)old;
	return EINVAL;
}
