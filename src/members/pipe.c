/*
 * pipe — musl's, and the two ends recorded as each other's peer
 * (src/sysio/peer.c): a write on one wakes the reader of the other
 * without the multiplexer.
 */
#include <unistd.h>
#include "peer.h"

int pipe(int fd[2])
{
#ifdef SYS_pipe
	long r = __syscall(SYS_pipe, fd);
#else
	long r = __syscall(SYS_pipe2, fd, 0);
#endif
	if (!r) __green_fd_pair(fd[0], fd[1]);
	return __syscall_ret(r);
}
