/*
 * prioceiling.c — the priority-ceiling attribute of mutexes in the 1:1
 * library (and the glibc overlay), which musl 1.2.3 declares but does
 * not define.  Stock musl
 * refuses PTHREAD_PRIO_PROTECT in pthread_mutexattr_setprotocol with
 * ENOTSUP, so no attribute object ever has a ceiling: both functions
 * report EINVAL, as musl's pthread_mutex_getprioceiling does
 * (docs/posix.md).  Green mode has its own (mutexattr.c).
 */
#include <pthread.h>
#include <errno.h>

int pthread_mutexattr_getprioceiling(const pthread_mutexattr_t *restrict a, int *restrict ceiling)
{
	return EINVAL;
}

int pthread_mutexattr_setprioceiling(pthread_mutexattr_t *a, int ceiling)
{
	return EINVAL;
}
