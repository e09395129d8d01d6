/*
 * stackmode_np.c — green's stack-mode attribute in 1:1 mode, mapped
 * thinly: the value is kept in the attribute (the same spare slot green
 * uses) and reported back; every kernel thread has a separate stack.
 */
#include <pthread.h>
#include <errno.h>

#define SLOT(a) ((a)->__u.__i[3 * (sizeof(size_t) / sizeof(int)) + 4])

int pthread_attr_setstackmode_np(pthread_attr_t *a, int mode)
{
	if (mode != PTHREAD_STACK_DEFAULT_NP && mode != PTHREAD_STACK_SEPARATE_NP &&
	    mode != PTHREAD_STACK_COPIED_NP)
		return EINVAL;
	SLOT(a) = mode;
	return 0;
}

int pthread_attr_getstackmode_np(const pthread_attr_t *a, int *mode)
{
	*mode = SLOT(a);
	return 0;
}
