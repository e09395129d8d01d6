/*
 * fifo.c — the open of a FIFO, which waits for the other end
 * (sysio.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include "base/gthread.h"
#include "sched/gsched.h"
#include "fdwait.h"
#include "signal/gsignal.h"
#include "sysio.h"

/* ---- FIFOs: open waits for the other end */

static long fifo_unblock(int fd)
{
	long fl = __syscall(SYS_fcntl, fd, F_GETFL);
	if (fl >= 0) __syscall(SYS_fcntl, fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

/* A reader's open returns once a writer has come: data or its hang-up. */
static long fifo_reader(int fd, int cp)
{
	int w;
	while (!__sysio_fd_ready(fd, GREEN_IN)) {
		w = __green_fd_wait(fd, GREEN_IN, GREEN_NO_DEADLINE, GW_FD, cp);
		if (!w) continue;
		if (w == EINTR && __green_intr_restart()) continue;
		__syscall(SYS_close, fd);
		__green_fd_forget(fd, fd);
		if (w == ECANCELED) __green_cancel_point();
		return -(w == ECANCELED ? EINTR : w);
	}
	return fifo_unblock(fd);
}

hidden long __sysio_open(long nr, long dirfd, long path, long flags, long mode, int cp)
{
	struct stat st;
	int acc = flags & O_ACCMODE;
	unsigned step = 0;
	long fd, r;

	if ((flags & (O_NONBLOCK | O_PATH)) || acc == O_RDWR ||
	    fstatat(dirfd, (const char *)path, &st, 0) || !S_ISFIFO(st.st_mode))
		return nr == SYS_open ? __syscall(nr, path, flags, mode)
		                      : __syscall(nr, dirfd, path, flags, mode);
	while ((fd = __syscall(SYS_openat, dirfd, path, flags | O_NONBLOCK, mode)) == -ENXIO)
		if ((r = __sysio_waited(__green_retry_wait(GW_RETRY, (void *)path, &step, GREEN_NO_DEADLINE, cp), cp))) return r;
	if (fd < 0) return fd;
	return acc == O_RDONLY ? fifo_reader(fd, cp) : fifo_unblock(fd);
}
