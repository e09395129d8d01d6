/* sigprocmask.c — in a threaded process POSIX leaves it unspecified; green
 * makes it the calling thread's mask, like pthread_sigmask. */
#include <signal.h>
#include <errno.h>

int sigprocmask(int how, const sigset_t *restrict set, sigset_t *restrict old)
{
	int r = pthread_sigmask(how, set, old);
	if (!r) return 0;
	errno = r;
	return -1;
}
