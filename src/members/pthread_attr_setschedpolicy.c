/*
 * pthread_attr_setschedpolicy — only the policies there are: EINVAL for
 * anything else (musl stores any number).  Replaces musl's member in
 * both threads modes.
 */
#include <sched.h>
#include "pthread_impl.h"

int pthread_attr_setschedpolicy(pthread_attr_t *a, int policy)
{
	switch (policy) {
	case SCHED_OTHER: case SCHED_FIFO: case SCHED_RR:
	case SCHED_BATCH: case SCHED_IDLE:
		a->_a_policy = policy;
		return 0;
	}
	return EINVAL;
}
