/*
 * mutexattr.c — the robust and protocol attributes of mutexes.
 *
 * musl's setters first ask the kernel whether it supports robust lists
 * and PI futexes, which its own mutexes need.  Green's robust and
 * priority-inheritance mutexes are its own (mutex.c) and need nothing
 * of the kernel, so the attributes are accepted wherever green runs
 * (qemu-user included).  Priority protection stays refused
 * (docs/posix.md).
 */
#include <errno.h>
#include "green.h"
#include "sync.h"

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
		a->__attr &= ~GM_PI;
		return 0;
	case PTHREAD_PRIO_INHERIT:
		a->__attr |= GM_PI;
		return 0;
	case PTHREAD_PRIO_PROTECT:
		return ENOTSUP;
	default:
		return EINVAL;
	}
}
