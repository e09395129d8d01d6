/* pthread_setaffinity_np — every green thread runs on the one kernel
 * thread: setting one thread's CPU set sets the process's (docs/ports.md). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include "thread/lifecycle.h"

int pthread_setaffinity_np(pthread_t t, size_t size, const cpu_set_t *set)
{
	if (!__green_lookup(t)) return ESRCH;
	return sched_setaffinity(0, size, set) ? errno : 0;
}
