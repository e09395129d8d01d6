/*
 * pthread_attr_setstacksize — at least PTHREAD_STACK_MIN (green's
 * <limits.h>: 16384, a page multiple), and sizes that do not wrap.
 * Replaces musl's member in both threads modes.
 */
#include "pthread_impl.h"

int pthread_attr_setstacksize(pthread_attr_t *a, size_t size)
{
	if (size < PTHREAD_STACK_MIN || size > SIZE_MAX / 4) return EINVAL;
	a->_a_stackaddr = 0;
	a->_a_stacksize = size;
	return 0;
}
