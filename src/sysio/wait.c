/*
 * wait.c — a core wait made for a system call, and how its end
 * becomes the call's result (sysio.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include "gthread.h"
#include "gsched.h"
#include "fdwait.h"
#include "gsignal.h"
#include "sysio.h"

/* A core wait ended: 0 to try again, or the -errno the call returns. */
hidden long __sysio_waited(int r, int cp)
{
	if (r == ECANCELED) {
		__green_cancel_point();
		return 0;
	}
	if (r == EINTR) return __green_intr_restart() ? 0 : -EINTR;
	return -r;
}

/* The core wait, marked a cancellation point when the call is one. */
hidden int __sysio_fd_wait(int fd, int ev, uint64_t deadline, enum gwait kind, int cp)
{
	return GREEN_CP_WAIT(cp, __green_fd_wait(fd, ev, deadline, kind));
}

hidden long __sysio_park_fd(int fd, int ev, uint64_t deadline, enum gwait kind, int cp)
{
	return __sysio_waited(__sysio_fd_wait(fd, ev, deadline, kind, cp), cp);
}

hidden long __sysio_park_retry(const void *obj, unsigned *step, uint64_t deadline, enum gwait kind, int cp)
{
	return __sysio_waited(GREEN_CP_WAIT(cp, __green_retry_wait(kind, obj, step, deadline)), cp);
}

hidden int __sysio_fd_ready(int fd, int ev)
{
	struct pollfd p = { fd, ev == GREEN_IN ? POLLIN : POLLOUT, 0 };
	long r;
	/* an error is not readiness: the plain call that follows would block
	 * the process.  Even with a zero timeout poll fails with EINTR when
	 * a signal (a time-slice tick) is pending and no descriptor is
	 * ready: ask again */
	while ((r = __syscall(SYS_poll, &p, 1, 0)) == -EINTR) ;
	return r > 0;
}
