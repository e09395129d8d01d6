/*
 * pthread_attr_setstack — a program-supplied stack of at least
 * PTHREAD_STACK_MIN bytes (green's <limits.h>).  Replaces musl's member
 * in both threads modes.
 */
#include "pthread_impl.h"

int pthread_attr_setstack(pthread_attr_t *a, void *addr, size_t size)
{
	if (size < PTHREAD_STACK_MIN || size > SIZE_MAX / 4) return EINVAL;
	a->_a_stackaddr = (size_t)addr + size;
	a->_a_stacksize = size;
	return 0;
}
