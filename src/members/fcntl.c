/*
 * fcntl — musl's, after which a change of a descriptor's flags (F_SETFL)
 * makes green ask again whether descriptors are non-blocking
 * (src/sysio/fdkind.c).  Wrapped (tools/mkspecs.sh, green mode only), so
 * every call, the libc's own included, comes here first.
 */
#include <fcntl.h>
#include <stdarg.h>
#include "fdwait.h"

int __real_fcntl(int, int, ...);

int __wrap_fcntl(int fd, int cmd, ...)
{
	unsigned long arg;
	va_list ap;
	int r;

	va_start(ap, cmd);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	r = __real_fcntl(fd, cmd, arg);
	if (cmd == F_SETFL && r >= 0) __green_fd_flags_changed();
	return r;
}
