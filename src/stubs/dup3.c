/*
 * dup3.c — replacing a descriptor others wait on wakes them with EBADF,
 * as closing it does; what green knew of the number is forgotten
 * (src/core/fdkind.c).
 */
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include "green.h"

static int dup3_kernel(int old, int new, int flags)
{
	int r;
	if (flags & O_CLOEXEC) {
		while ((r=__syscall(SYS_dup3, old, new, flags))==-EBUSY);
		if (r!=-ENOSYS) return r;
	}
	while ((r=__syscall(SYS_dup2, old, new))==-EBUSY);
	if (flags & O_CLOEXEC) __syscall(SYS_fcntl, new, F_SETFD, FD_CLOEXEC);
	return r;
}

int __dup3(int old, int new, int flags)
{
	int r;
	if (old==new) return __syscall_ret(-EINVAL);
	if (green_active()) __green_fd_closed(new);
	r = dup3_kernel(old, new, flags);
	__green_fd_forget(new, new);
	return __syscall_ret(r);
}

weak_alias(__dup3, dup3);
