/* pthread_getaffinity_np — every green thread runs on the one kernel
 * thread: its CPU set is the process's. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include "thread/lifecycle.h"

int pthread_getaffinity_np(pthread_t t, size_t size, cpu_set_t *set)
{
	if (!__green_lookup(t)) return ESRCH;
	return sched_getaffinity(0, size, set) ? errno : 0;
}
