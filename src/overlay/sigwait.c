/* sigwait — through green's sigtimedwait (src/stubs), which parks only
 * the caller. */
#include <signal.h>
#include <errno.h>

int sigwait(const sigset_t *restrict set, int *restrict sig)
{
	int r;
	do r = sigtimedwait(set, 0, 0);
	while (r < 0 && errno == EINTR);
	if (r < 0) return errno;
	*sig = r;
	return 0;
}
