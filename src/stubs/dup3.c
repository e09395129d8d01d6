/*
 * dup3.c — replacing a descriptor others wait on wakes them with EBADF,
 * as closing it does.
 */
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include "green.h"

int __dup3(int old, int new, int flags)
{
	int r;
	if (old==new) return __syscall_ret(-EINVAL);
	if (green_active()) __green_fd_closed(new);
	if (flags & O_CLOEXEC) {
		while ((r=__syscall(SYS_dup3, old, new, flags))==-EBUSY);
		if (r!=-ENOSYS) return __syscall_ret(r);
	}
	while ((r=__syscall(SYS_dup2, old, new))==-EBUSY);
	if (flags & O_CLOEXEC) __syscall(SYS_fcntl, new, F_SETFD, FD_CLOEXEC);
	return __syscall_ret(r);
}

weak_alias(__dup3, dup3);
