/*
 * dup2.c — replacing a descriptor others wait on wakes them with EBADF,
 * as closing it does.
 */
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include "green.h"

int dup2(int old, int new)
{
	int r;
	if (green_active() && old != new) __green_fd_closed(new);
	while ((r=__syscall(SYS_dup2, old, new))==-EBUSY);
	return __syscall_ret(r);
}
