/*
 * __stdio_close.c — fclose wakes the threads parked on the FILE's
 * descriptor (they get EBADF), as close() does.
 */
#include "base/seam.h"
#include "stdio_impl.h"
#include "aio_impl.h"
#include "green-sys.h"

static int dummy(int fd)
{
	return fd;
}

weak_alias(dummy, __aio_close);

int __stdio_close(FILE *f)
{
	return __syscall_ret(green_sys(SYS_close, __aio_close(f->fd), 0, 0, 0));
}
