/*
 * pthread_attr_setschedparam — EINVAL for a priority that no policy has
 * (Linux's ranges: 1 to 99 for SCHED_FIFO and SCHED_RR, 0 for the
 * others, as sched_get_priority_min/max say); musl stores any number.
 * Whether the priority fits the attribute's policy is not asked here,
 * since a program may set the priority before the policy: pthread_create
 * checks the pair of an explicit attribute (green's create.c; musl's
 * kernel call in 1:1 mode).  Replaces musl's member in both threads
 * modes.
 */
#include <sched.h>
#include "pthread_impl.h"

int pthread_attr_setschedparam(pthread_attr_t *restrict a, const struct sched_param *restrict param)
{
	if (param->sched_priority < 0 || param->sched_priority > 99) return EINVAL;
	a->_a_prio = param->sched_priority;
	return 0;
}
