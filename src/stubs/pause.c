/* pause.c — sigsuspend with the caller's own mask. */
#include <signal.h>
#include <unistd.h>
#include "base/gthread.h"

int pause(void)
{
	sigset_t mask;
	if (!green_active()) return syscall_cp(SYS_pause);
	pthread_sigmask(SIG_BLOCK, 0, &mask);
	return sigsuspend(&mask);
}
