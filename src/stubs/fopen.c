/*
 * fopen.c — opening a FIFO with fopen parks only the caller until the
 * other end opens (the open goes through the green dispatch).
 */
#include "stdio_impl.h"
#include <fcntl.h>
#include <string.h>
#include <errno.h>
#include "green-sys.h"

FILE *fopen(const char *restrict filename, const char *restrict mode)
{
	FILE *f;
	int fd;
	int flags;

	/* Check for valid initial mode character */
	if (!strchr("rwa", *mode)) {
		errno = EINVAL;
		return 0;
	}

	/* Compute the flags to pass to open() */
	flags = __fmodeflags(mode);

	fd = __syscall_ret(green_sys(SYS_open, (long)filename, flags | O_LARGEFILE, 0666, 0));
	if (fd < 0) return 0;
	if (flags & O_CLOEXEC)
		__syscall(SYS_fcntl, fd, F_SETFD, FD_CLOEXEC);

	f = __fdopen(fd, mode);
	if (f) return f;

	__syscall(SYS_close, fd);
	return 0;
}

#undef fopen64
weak_alias(fopen, fopen64);
