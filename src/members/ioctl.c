/*
 * ioctl — musl's, after which FIONBIO (O_NONBLOCK set or cleared) makes
 * green ask again whether descriptors are non-blocking
 * (src/sysio/fdkind.c).  A FIONBIO that asks a listening socket whose
 * O_NONBLOCK is green's (src/sysio/listener.c) to block is already done
 * as the program sees it, and keeps green's flag.  Wrapped
 * (tools/mkspecs.sh, green mode only), so every call, the libc's own
 * included, comes here first.
 */
#include <sys/ioctl.h>
#include <stdarg.h>
#include "fdwait.h"

int __real_ioctl(int, int, ...);

int __wrap_ioctl(int fd, int req, ...)
{
	void *arg;
	va_list ap;
	int r;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == FIONBIO && arg && !*(int *)arg && __green_listener_greens(fd)) return 0;
	r = __real_ioctl(fd, req, arg);
	if (req == FIONBIO && r >= 0) __green_listener_flags_set(fd, 0);
	return r;
}
