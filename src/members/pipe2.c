/*
 * pipe2 — musl's, and the two ends recorded as each other's peer
 * (src/sysio/peer.c): a write on one wakes the reader of the other
 * without the multiplexer (pipe() is src/members/pipe.c).
 */
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include "peer.h"

/* a kernel without pipe2 (before Linux 2.6.27): pipe, then the flags */
static int flagged(int fd[2], int flag)
{
	if (pipe(fd)) return -1;
	for (int i = 0; i < 2; i++) {
		if (flag & O_CLOEXEC) __syscall(SYS_fcntl, fd[i], F_SETFD, FD_CLOEXEC);
		if (flag & O_NONBLOCK) __syscall(SYS_fcntl, fd[i], F_SETFL, O_NONBLOCK);
	}
	return 0;
}

int pipe2(int fd[2], int flag)
{
	long r;

	if (!flag) return pipe(fd);
	r = __syscall(SYS_pipe2, fd, flag);
	if (r == -ENOSYS) return flagged(fd, flag);
	if (!r) __green_fd_pair(fd[0], fd[1]);
	return __syscall_ret(r);
}
