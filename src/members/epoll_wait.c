/*
 * epoll — musl's epoll_create, epoll_create1, epoll_ctl, epoll_pwait and
 * epoll_wait (one member), with the wait's probe in line once threads
 * exist.
 *
 * An event loop's wait usually finds events: the loop asked for them
 * because it expected some.  Through musl's entry for blocking calls
 * (__syscall_cp, then the engine's dispatch and sets.c) such a wait
 * cost 184 instructions; here the engine's first step, the
 * zero-timeout probe (sets.c), is made in line, and events found, or a
 * timeout of 0, is the answer: 43 (tests/tools/budget.sh's ewait).  A probe that
 * found nothing goes on to the engine's wait without probing again
 * (__sysio_epoll_empty), so a wait that blocks makes the same system
 * calls as before.  Anything else (a signal mask to install, no threads
 * yet, a posix_spawn child, a cancel pending, an error, which the
 * engine meets as it did: EINTR by probing again, EFAULT once a parked
 * copied thread's stack is loaded) takes musl's way, __syscall_cp.
 *
 * The rest are musl's as they were: epoll_create takes any size
 * (epoll_create1(0)), epoll_create1 falls back to epoll_create where
 * the kernel lacks it, epoll_ctl is the system call.
 */
#include <errno.h>
#include <signal.h>
#include "fastio.h"   /* <sys/epoll.h> with musl's <endian.h> quiet */

int epoll_create(int size)
{
	return epoll_create1(0);
}

int epoll_create1(int flags)
{
	long r = __syscall(SYS_epoll_create1, flags);
#ifdef SYS_epoll_create
	if (r == -ENOSYS && !flags) r = __syscall(SYS_epoll_create, 1);
#endif
	return __syscall_ret(r);
}

int epoll_ctl(int fd, int op, int fd2, struct epoll_event *ev)
{
	return __syscall_ret(__syscall(SYS_epoll_ctl, fd, op, fd2, ev));
}

static __attribute__((noinline)) int general(int fd, struct epoll_event *ev, int cnt, int to, const sigset_t *sigs)
{
	long r = __syscall_cp(SYS_epoll_pwait, fd, ev, cnt, to, sigs, _NSIG / 8);
#ifdef SYS_epoll_wait
	if (r == -ENOSYS && !sigs) r = __syscall_cp(SYS_epoll_wait, fd, ev, cnt, to);
#endif
	return __syscall_ret(r);
}

/* The probe found nothing (r 0) and the program will wait: the
 * engine's wait, then its probes (sets.c); a probe there that met a
 * parked copied thread's stack goes the general way, which loads it.
 * Any other r: the kernel's error, which the general way meets as
 * before (EINTR: it probes again; EFAULT, ENOSYS, the rest). */
static __attribute__((noinline)) int after(int fd, struct epoll_event *ev, int cnt, int to, long r)
{
	if (r || !to) return r ? general(fd, ev, cnt, to, 0) : 0;
	r = __sysio_epoll_empty((const long[6]){ fd, (long)ev, cnt, to, 0, _NSIG / 8 }, 1);
	if (r == -EFAULT) return general(fd, ev, cnt, to, 0);
	return __syscall_ret(r);
}

int epoll_pwait(int ifd, struct epoll_event *ev, int icnt, int to, const sigset_t *sigs)
{
	long fd = ifd, cnt = icnt, r;   /* in the system call's registers throughout */

	if (sigs || !green_fast_caller()) return general(fd, ev, cnt, to, sigs);
	r = __syscall(SYS_epoll_pwait, fd, ev, cnt, 0, 0, _NSIG / 8);
	if (r > 0) return r;
	return after(fd, ev, cnt, to, r);
}

int epoll_wait(int fd, struct epoll_event *ev, int cnt, int to)
{
	return epoll_pwait(fd, ev, cnt, to, 0);
}
