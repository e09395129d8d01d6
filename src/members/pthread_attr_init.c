/*
 * pthread_attr_init — green mode only: an attribute that names no stack
 * size leaves it 0, "the default", which pthread_create decides (a
 * copied thread's slot, else glibc's default on a 64-bit CPU:
 * __green_stack_default) and pthread_attr_getstacksize reports; musl's
 * writes its own 128 KiB in.  The guard's default is musl's.
 */
#include "pthread_impl.h"

int pthread_attr_init(pthread_attr_t *a)
{
	*a = (pthread_attr_t){ 0 };
	a->_a_guardsize = __default_guardsize;
	return 0;
}
