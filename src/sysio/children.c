/*
 * children.c — wait4 and waitid (sysio.h).
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include "base/gthread.h"
#include "sched/gsched.h"
#include "fdwait.h"
#include "sysio.h"

/* ---- children */

static long child_park(long pid, long opt, unsigned *step, int cp)
{
	long fd = -1;
	int w;

	static int no_pidfd;   /* the kernel (or valgrind) lacks pidfd_open */

	if (pid > 0 && !(opt & (WUNTRACED | WCONTINUED)) && !no_pidfd)
		fd = __syscall(SYS_pidfd_open, pid, 0);
	if (fd == -ENOSYS) no_pidfd = 1;
	if (fd < 0) return __sysio_waited(__green_retry_wait(GW_CHILD, (void *)pid, step, GREEN_NO_DEADLINE, cp), cp);
	w = __green_fd_wait(fd, GREEN_IN, GREEN_NO_DEADLINE, GW_CHILD, cp);
	__syscall(SYS_close, fd);
	__green_fd_forget(fd, fd);   /* the epoll backend's registration too */
	return __sysio_waited(w, cp);
}

hidden long __sysio_wait4(long pid, long st, long opt, long ru, int cp)
{
	unsigned step = 0;
	long r;

	if (opt & WNOHANG) return __syscall(SYS_wait4, pid, st, opt, ru);
	for (;;) {
		if ((r = __syscall(SYS_wait4, pid, st, opt | WNOHANG, ru))) return r;
		if ((r = child_park(pid, opt, &step, cp))) return r;
	}
}

hidden long __sysio_waitid(long type, long id, siginfo_t *si, long opt, long ru, int cp)
{
	unsigned step = 0;
	long r;

	if ((opt & WNOHANG) || !si) return __syscall(SYS_waitid, type, id, si, opt, ru);
	for (;;) {
		si->si_pid = 0;
		r = __syscall(SYS_waitid, type, id, si, opt | WNOHANG, ru);
		if (r || si->si_pid) return r;
		if ((r = child_park(type == P_PID ? id : -1, opt, &step, cp))) return r;
	}
}
