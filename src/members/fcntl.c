/*
 * fcntl — musl's, after which a change of a descriptor's flags (F_SETFL)
 * makes green ask again whether descriptors are non-blocking
 * (src/sysio/fdkind.c).  A listening socket's O_NONBLOCK that green set
 * itself (src/sysio/listener.c) is not the program's: F_GETFL does not
 * show it, and an F_SETFL without O_NONBLOCK keeps it.  Wrapped
 * (tools/mkspecs.sh, green mode only), so every call, the libc's own
 * included, comes here first.
 */
#include <fcntl.h>
#include <stdarg.h>
#include "fdwait.h"

int __real_fcntl(int, int, ...);

int __wrap_fcntl(int fd, int cmd, ...)
{
	unsigned long arg, asked;
	va_list ap;
	int r;

	va_start(ap, cmd);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	asked = arg;
	if (cmd == F_SETFL) arg = __green_listener_setfl(fd, arg);
	r = __real_fcntl(fd, cmd, arg);
	if (cmd == F_GETFL) return __green_listener_getfl(fd, r);
	if (cmd == F_SETFL && r >= 0) __green_listener_flags_set(fd, arg != asked);
	return r;
}
