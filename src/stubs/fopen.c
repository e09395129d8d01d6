/*
 * fopen.c — fopen (and fopen64): open the file, then wrap the
 * descriptor in a FILE.  Green makes the open through its dispatch, so
 * opening a FIFO parks only the caller until the other end opens.
 */
#include "fdwait.h"
#include "stdio_impl.h"
#include <fcntl.h>
#include <errno.h>
#include "green-sys.h"

/* the first character of a mode; an empty mode passes too, as musl's
 * strchr test lets it (it finds the string's terminator) */
static int mode_ok(char c)
{
	return c == 'r' || c == 'w' || c == 'a' || c == 0;
}

static int open_file(const char *name, int flags)
{
	long fd = green_sys(SYS_open, (long)name, flags | O_LARGEFILE, 0666, 0);

	fd = __syscall_ret(fd);
	/* a kernel too old for O_CLOEXEC on open ignores it */
	if (fd >= 0 && (flags & O_CLOEXEC))
		__syscall(SYS_fcntl, fd, F_SETFD, FD_CLOEXEC);
	return fd;
}

FILE *fopen(const char *restrict name, const char *restrict mode)
{
	FILE *f;
	int fd;

	if (!mode_ok(*mode)) {
		errno = EINVAL;
		return 0;
	}
	fd = open_file(name, __fmodeflags(mode));
	if (fd < 0) return 0;
	f = __fdopen(fd, mode);
	if (!f) {
		__syscall(SYS_close, fd);
		__green_fd_forget(fd, fd);   /* it may have been waited on (a FIFO) */
	}
	return f;
}

#undef fopen64
weak_alias(fopen, fopen64);
