/*
 * poll — musl's, with the probe in line once threads exist, as
 * epoll_wait's (epoll_wait.c): a poll usually finds a descriptor ready
 * (a loop asks because it expects one), and musl's way, through
 * __syscall_cp, the engine's dispatch and sets.c, cost 176
 * instructions for that.  The engine's first step, a zero-timeout
 * ppoll, is made here: something ready, or a timeout of 0, is the
 * answer: 34 (tests/tools/budget.sh's pready).  Nothing ready with a timeout goes to the
 * engine's wait without a second probe (__sysio_poll_empty), so a poll
 * that blocks makes the system calls it made before.  No threads yet, a
 * posix_spawn child, a cancel pending and any error take musl's way
 * (EINTR: probed again there; EFAULT: made again once a parked copied
 * thread's stack is loaded).
 */
#include <poll.h>
#include <signal.h>
#include <time.h>
#include "fastio.h"

static __attribute__((noinline)) int general(struct pollfd *fds, nfds_t n, int timeout)
{
#ifdef SYS_poll
	return syscall_cp(SYS_poll, fds, n, timeout);
#else
	struct timespec ts = { .tv_sec = timeout / 1000, .tv_nsec = timeout % 1000 * 1000000 };
	return syscall_cp(SYS_ppoll, fds, n, timeout >= 0 ? &ts : 0, 0, _NSIG / 8);
#endif
}

/* the probe's answer r was nothing (0, a timeout to wait for) or an
 * error */
static __attribute__((noinline)) int after(struct pollfd *fds, nfds_t n, int timeout, long r)
{
	if (r || !timeout) return r ? general(fds, n, timeout) : 0;
	r = __sysio_poll_empty(fds, n, timeout, 1);
	if (r == -EFAULT) return general(fds, n, timeout);
	return __syscall_ret(r);
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	/* writable: the kernel writes the time left back (sets.c) */
	struct timespec zero = { 0 };
	long r;

	if (!green_fast_caller()) return general(fds, n, timeout);
	r = __syscall(SYS_ppoll, fds, n, &zero, 0, _NSIG / 8);
	if (r > 0) return r;
	return after(fds, n, timeout, r);
}
