/*
 * affinity.c — sched_setaffinity, sched_getaffinity and their pthread
 * forms.  Every green thread runs on the one kernel thread, so the CPU
 * set of any of them is that kernel thread's: setting one thread's sets
 * it for all.  A green thread id (gettid(), tid.c) names that kernel
 * thread; one no live thread holds is ESRCH; a thread of another process
 * is the kernel's.  musl's would hand the kernel a green id (ESRCH), and
 * its pthread forms read a kernel tid out of a pthread_t, which here is
 * a green thread's descriptor.
 */
#include <sched.h>
#include <string.h>
#include <errno.h>
#include "thread/lifecycle.h"

static long set(pid_t tid, size_t size, const cpu_set_t *set)
{
	long k = __green_tid_kernel(tid);
	return k < 0 ? k : __syscall(SYS_sched_setaffinity, k, size, set);
}

static long get(pid_t tid, size_t size, cpu_set_t *set)
{
	long k = __green_tid_kernel(tid), r;
	if (k < 0) return k;
	if ((r = __syscall(SYS_sched_getaffinity, k, size, set)) < 0) return r;
	if ((size_t)r < size) memset((char *)set + r, 0, size - r);
	return 0;
}

int sched_setaffinity(pid_t tid, size_t size, const cpu_set_t *s)
{
	return __syscall_ret(set(tid, size, s));
}

int sched_getaffinity(pid_t tid, size_t size, cpu_set_t *s)
{
	return __syscall_ret(get(tid, size, s));
}

int pthread_setaffinity_np(pthread_t t, size_t size, const cpu_set_t *s)
{
	if (!__green_lookup(t)) return ESRCH;
	return -set(0, size, s);
}

int pthread_getaffinity_np(pthread_t t, size_t size, cpu_set_t *s)
{
	if (!__green_lookup(t)) return ESRCH;
	return -get(0, size, s);
}
