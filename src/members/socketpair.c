/*
 * socketpair — musl's, and the two ends recorded as each other's peer
 * (src/sysio/peer.c): data written to one wakes a reader of the other
 * without the multiplexer.
 */
#include <sys/socket.h>
#include <errno.h>
#include <fcntl.h>
#include "peer.h"

int socketpair(int domain, int type, int protocol, int fd[2])
{
	int flags = type & (SOCK_CLOEXEC | SOCK_NONBLOCK);
	long r = __socketcall(socketpair, domain, type, protocol, fd, 0, 0);

	if ((r == -EINVAL || r == -EPROTONOSUPPORT) && flags) {
		/* a kernel that takes no flags in the type (before 2.6.27) */
		r = __socketcall(socketpair, domain, type & ~flags, protocol, fd, 0, 0);
		for (int i = 0; !r && i < 2; i++) {
			if (flags & SOCK_CLOEXEC) __syscall(SYS_fcntl, fd[i], F_SETFD, FD_CLOEXEC);
			if (flags & SOCK_NONBLOCK) __syscall(SYS_fcntl, fd[i], F_SETFL, O_NONBLOCK);
		}
	}
	if (!r) __green_fd_pair(fd[0], fd[1]);
	return __syscall_ret(r);
}
