/*
 * dup2.c — replacing a descriptor others wait on wakes them with EBADF,
 * as closing it does; what green knew of the number is forgotten
 * (src/sysio/fdkind.c).
 */
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include "base/gthread.h"
#include "fdwait.h"

int dup2(int old, int new)
{
	int r;
	if (green_active() && old != new) __green_fd_closed(new);
	while ((r=__syscall(SYS_dup2, old, new))==-EBUSY);
	if (old != new) __green_fd_forget(new, new);
	return __syscall_ret(r);
}
