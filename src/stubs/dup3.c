/*
 * dup3.c — dup3: make new a copy of old, optionally close-on-exec.
 *
 * Green's additions: threads parked on new are woken with EBADF before
 * it is replaced, as closing it would, and what green knew of the
 * number is forgotten afterwards (src/sysio/fdkind.c).
 */
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include "base/gthread.h"
#include "fdwait.h"

/* The kernel's part.  dup3 only when close-on-exec is asked for (and
 * the kernel has it), else dup2 and an fcntl.  EBUSY means another
 * thread is still opening new: ask again. */
static long kernel_dup(int old, int new, int flags)
{
	int cloexec = flags & O_CLOEXEC;
	long r;

	if (cloexec) {
		do r = __syscall(SYS_dup3, old, new, flags);
		while (r == -EBUSY);
		if (r != -ENOSYS) return r;
	}
	do r = __syscall(SYS_dup2, old, new);
	while (r == -EBUSY);
	if (cloexec) __syscall(SYS_fcntl, new, F_SETFD, FD_CLOEXEC);
	return r;
}

int __dup3(int old, int new, int flags)
{
	long r;

	if (old == new) return __syscall_ret(-EINVAL);
	if (green_active()) __green_fd_closed(new);
	r = kernel_dup(old, new, flags);
	__green_fd_forget(new, new);
	return __syscall_ret(r);
}

weak_alias(__dup3, dup3);
