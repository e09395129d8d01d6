/* raise.c — signal the calling thread: the kernel thread until threads
 * exist (musl signals the TCB's tid, which green binds per green thread
 * for FILE locks), the calling green thread afterwards. */
#include <signal.h>
#include <errno.h>
#include "base/gthread.h"

int raise(int sig)
{
	int r;
	if (!green_active()) return syscall(SYS_tkill, __syscall(SYS_gettid), sig);
	if ((r = pthread_kill(pthread_self(), sig))) {
		errno = r;
		return -1;
	}
	return 0;
}
