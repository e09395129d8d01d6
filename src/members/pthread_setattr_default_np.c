/*
 * pthread_setattr_default_np, pthread_getattr_default_np — green mode
 * only: the default stack size is green's (__green_stack_default), set
 * to the size given, as glibc does; musl's only ever raises its own and
 * caps it at 8 MiB.  As with musl, an attribute with anything but a
 * stack and a guard size is refused (EINVAL), and the guard's default
 * only grows.
 */
#include <string.h>
#include "pthread_impl.h"
#include "stack/gstack.h"

int pthread_setattr_default_np(const pthread_attr_t *attrp)
{
	pthread_attr_t tmp = *attrp, zero = { 0 };
	size_t guard = attrp->_a_guardsize;

	tmp._a_stacksize = 0;
	tmp._a_guardsize = 0;
	if (memcmp(&tmp, &zero, sizeof tmp)) return EINVAL;
	if (attrp->_a_stacksize) __green_stack_default_now = attrp->_a_stacksize;
	if (guard > DEFAULT_GUARD_MAX) guard = DEFAULT_GUARD_MAX;
	if (guard > __default_guardsize) __default_guardsize = guard;
	return 0;
}

int pthread_getattr_default_np(pthread_attr_t *attrp)
{
	*attrp = (pthread_attr_t){
		._a_stacksize = green_stack_default(),
		._a_guardsize = __default_guardsize,
	};
	return 0;
}
