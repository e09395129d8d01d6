/*
 * listener.c — accept() on a listening socket that other processes may
 * share: the accept itself never waits in the kernel.
 *
 * A listening socket inherited across fork (one server process per core,
 * docs/servers.md) is one queue for every process that accepts from it.
 * When a connection comes, the kernel wakes every process waiting for it
 * to be readable, and all but one find the queue empty again.  A
 * readiness check followed by the program's blocking accept() cannot be
 * one step across processes: the kernel thread of a process whose check
 * said "ready" just before another process took the connection would
 * sleep in accept() until the next connection, and every green thread of
 * that process with it.  So a blocking accept is made non-blocking, and
 * EAGAIN is a wait for readiness like any other; a wake-up for a
 * connection another process took costs one accept() that answers EAGAIN
 * and another wait (level-triggered readiness says ready only while the
 * queue holds a connection: no busy loop).
 *
 * accept() has no per-call MSG_DONTWAIT: only the open file's O_NONBLOCK
 * makes it non-blocking, and the open file is shared with the other
 * processes.  Setting the flag around each call would race with another
 * process clearing it around its own call, so green sets it for good, at
 * the first accept of a listening socket the program left blocking, and
 * marks the open file as green's: F_SETSIG set to SIGIO, which changes
 * nothing while O_ASYNC is off (and is the signal O_ASYNC would send
 * anyway).  Every green process that shares the socket, or execs with
 * it, reads the mark and knows the program's view is still blocking.
 * The program's view is kept through green's functions: fcntl(F_GETFL)
 * does not show green's O_NONBLOCK, F_SETFL and FIONBIO that leave it
 * blocking keep it, and those that make it non-blocking make it the
 * program's (the mark goes).  What is known of a number (its lst state)
 * is forgotten with the number (fdkind.c).
 *
 * A listening socket the program made non-blocking itself is its own:
 * accept() gets the readiness check and the plain call, EAGAIN included,
 * as before.  So is a number beyond green's descriptor table.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include "base/gthread.h"
#include "base/section.h"
#include "fdwait.h"
#include "fdtab.h"
#include "sysio.h"

#ifndef F_SETSIG
#define F_SETSIG 10
#define F_GETSIG 11
#endif
#define MARK SIGIO

/* Make fd's open file non-blocking, marked as green's, if it is a
 * listening socket; 1 when done. */
static int take(int fd, struct green_fd *f)
{
	int on = 0, ok = 0;
	socklen_t len = sizeof on;
	long fl;

	GREEN_ENTER();
	fl = __syscall(SYS_fcntl, fd, F_GETFL);
	if (fl >= 0 && !__syscall(SYS_getsockopt, fd, SOL_SOCKET, SO_ACCEPTCONN, &on, &len) && on &&
	    !__syscall(SYS_fcntl, fd, F_SETSIG, MARK) &&   /* the mark first: seen with the flag */
	    !__syscall(SYS_fcntl, fd, F_SETFL, fl | O_NONBLOCK)) {
		f->lst = LST_GREEN;
		green_fd_used(fd);
		ok = 1;
	}
	GREEN_LEAVE();
	return ok;
}

/* Does accept() on fd go non-blocking, with green's wait on EAGAIN? */
static int green_nowait(int fd)
{
	struct green_fd *f = green_fd(fd);

	if (!f) return 0;
	if (f->lst == LST_GREEN) return 1;
	if (!green_fd_nonblocking(f, fd)) return take(fd, f);
	if (f->lst == LST_PROGRAM) return 0;
	/* non-blocking: the program's, or green's by another process */
	GREEN_ENTER();
	f->lst = __syscall(SYS_fcntl, fd, F_GETSIG) == MARK ? LST_GREEN : LST_PROGRAM;
	green_fd_used(fd);
	GREEN_LEAVE();
	return f->lst == LST_GREEN;
}

hidden long __sysio_accept(long nr, const long *a, int cp)
{
	long r;

	if (!green_nowait(a[0])) return __sysio_io_call(nr, a, GREEN_IN, BY_READY, 0, cp);
	for (;;) {
		r = __syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		if (r != -EAGAIN) return r;
		if ((r = __sysio_waited(__green_fd_wait(a[0], GREEN_IN, GREEN_NO_DEADLINE, GW_FD, cp), cp)))
			return r;
	}
}

/* ---- the program's view (src/members/fcntl.c, ioctl.c, syscall.c) */

static int greens(int fd)
{
	struct green_fd *f = green_fd(fd);
	return f && f->lst == LST_GREEN;
}

/* Is fd's O_NONBLOCK green's? */
hidden int __green_listener_greens(int fd)
{
	return greens(fd);
}

/* F_GETFL's answer r for fd, as the program sees it */
hidden long __green_listener_getfl(int fd, long r)
{
	return r >= 0 && greens(fd) ? r & ~O_NONBLOCK : r;
}

/* The flags F_SETFL gives the kernel for the program's fl: green's
 * O_NONBLOCK kept while the program asks for a blocking socket. */
hidden long __green_listener_setfl(int fd, long fl)
{
	return greens(fd) ? fl | O_NONBLOCK : fl;
}

/* The program changed fd's flags (F_SETFL, FIONBIO), after the call:
 * kept when the call kept green's O_NONBLOCK (a blocking socket asked
 * for, __green_listener_setfl); otherwise the flag is the program's and
 * the mark goes. */
hidden void __green_listener_flags_set(int fd, int kept)
{
	struct green_fd *f = green_fd(fd);

	if (f && !kept) {
		GREEN_ENTER();
		if (f->lst == LST_GREEN) __syscall(SYS_fcntl, fd, F_SETSIG, 0);
		f->lst = LST_UNKNOWN;
		GREEN_LEAVE();
	}
	__green_fd_flags_changed();
}
