/*
 * pthread_attr_setschedparam — a priority inside the range of the
 * attribute's policy as it is set now (Linux's: 1 to 99 for SCHED_FIFO
 * and SCHED_RR, 0 for the others, as sched_get_priority_min/max say),
 * else EINVAL, as glibc answers; musl stores any number.  Set the policy
 * first.  Replaces musl's member in both threads modes.
 */
#include <sched.h>
#include "pthread_impl.h"

int pthread_attr_setschedparam(pthread_attr_t *restrict a, const struct sched_param *restrict param)
{
	int rt = a->_a_policy == SCHED_FIFO || a->_a_policy == SCHED_RR;
	int prio = param->sched_priority;

	if (rt ? prio < 1 || prio > 99 : prio != 0) return EINVAL;
	a->_a_prio = prio;
	return 0;
}
