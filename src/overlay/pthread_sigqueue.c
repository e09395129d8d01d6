/*
 * pthread_sigqueue — glibc's sends to the kernel thread behind a glibc
 * pthread_t.  green's per-thread signals carry no value (src/core/signal/deliver.c),
 * so a queued signal for one green thread is refused with ENOSYS rather
 * than delivered without its value; sigqueue() to the process works.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <errno.h>
#include "thread/lifecycle.h"

int pthread_sigqueue(pthread_t t, int sig, const union sigval value)
{
	(void)sig;
	(void)value;
	if (!__green_lookup(t)) return ESRCH;
	return ENOSYS;
}
