/*
 * mutexattr.c — the robust, protocol and priority-ceiling attributes of
 * mutexes.
 *
 * musl's setters first ask the kernel whether it supports robust lists
 * and PI futexes, which its own mutexes need.  Green's robust,
 * priority-inheritance and priority-protect mutexes are its own
 * (mutex.c) and need nothing of the kernel, so the attributes are
 * accepted wherever green runs (qemu-user included).  The ceiling lives
 * in the attribute word's GM_CEIL_MASK bits, which musl's attribute code
 * leaves alone; the 1:1 library keeps musl's refusal (prioceiling.c).
 */
#include <errno.h>
#include "sync/sync.h"

int pthread_mutexattr_getprioceiling(const pthread_mutexattr_t *restrict a, int *restrict ceiling)
{
	*ceiling = gm_ceiling(a->__attr);
	return 0;
}

/* the SCHED_FIFO range, 1..99, as glibc checks it */
int pthread_mutexattr_setprioceiling(pthread_mutexattr_t *a, int ceiling)
{
	if (ceiling < 1 || ceiling > 99) return EINVAL;
	a->__attr = (a->__attr & ~GM_CEIL_MASK) | (unsigned)ceiling << GM_CEIL_SHIFT;
	return 0;
}

int pthread_mutexattr_setrobust(pthread_mutexattr_t *a, int robust)
{
	if ((unsigned)robust > 1U) return EINVAL;
	if (robust) a->__attr |= GM_ROBUST;
	else a->__attr &= ~GM_ROBUST;
	return 0;
}

int pthread_mutexattr_setprotocol(pthread_mutexattr_t *a, int protocol)
{
	switch (protocol) {
	case PTHREAD_PRIO_NONE:
		a->__attr &= ~(GM_PI | GM_PROTECT);
		return 0;
	case PTHREAD_PRIO_INHERIT:
		a->__attr = (a->__attr & ~GM_PROTECT) | GM_PI;
		return 0;
	case PTHREAD_PRIO_PROTECT:
		a->__attr = (a->__attr & ~GM_PI) | GM_PROTECT;
		return 0;
	default:
		return EINVAL;
	}
}
