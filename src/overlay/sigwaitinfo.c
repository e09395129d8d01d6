/* sigwaitinfo — through green's sigtimedwait (src/stubs). */
#include <signal.h>

int sigwaitinfo(const sigset_t *restrict set, siginfo_t *restrict si)
{
	return sigtimedwait(set, si, 0);
}
