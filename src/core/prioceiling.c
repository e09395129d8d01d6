/*
 * prioceiling.c — the priority-ceiling attribute of mutexes, which musl
 * 1.2.3 declares but does not define.  Priority protection
 * (PTHREAD_PRIO_PROTECT) is refused by pthread_mutexattr_setprotocol
 * with ENOTSUP, so no attribute object ever has a ceiling: both
 * functions report EINVAL, as pthread_mutex_getprioceiling does
 * (docs/posix.md).  Linked into both library trees.
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
