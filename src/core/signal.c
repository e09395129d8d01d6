/*
 * signal.c — signals aimed at threads.
 *
 * In this step the kernel's signal state is the process's: a signal sent
 * to any green thread is delivered to the kernel thread, and so handled
 * by whichever green thread is running.  Per-thread masks and delivery
 * are the virtualisation described in docs/signals.md.
 */
#include <signal.h>
#include <errno.h>
#include "green.h"

int pthread_kill(pthread_t p, int sig)
{
	struct green_thread *t = __green_lookup(p);
	if ((unsigned)sig >= _NSIG) return EINVAL;
	if (!t || t->state == GS_EXITED) return ESRCH;
	if (!sig) return 0;
	return -__syscall(SYS_tkill, __syscall(SYS_gettid), sig);
}

hidden int __green_intr_restart(void)
{
	return 0;
}
