/*
 * recvfrom — musl's (recv calls it), with a socket's receive in line
 * once threads exist, as read's (read.c): one look at the descriptor's
 * entry and recvfrom with the program's flags and MSG_DONTWAIT, or a
 * wait for readiness when its reads lately found nothing
 * (src/sysio/fastio.h).  Flags that make the call wait for more than
 * some data (MSG_WAITALL) or ask for what never waits, and everything
 * else, go to musl's entry for blocking calls, __syscall_cp, as musl's
 * own recvfrom does.  A receive the program asked not to wait
 * (MSG_DONTWAIT) is its one system call.
 */
#include <sys/socket.h>
#include "fastio.h"

/* wait's values across its switch in its frame (src/arch/contract.h) */
GREEN_ARCH_WAITS_ON_STACK

static __attribute__((noinline)) ssize_t general(long fd, void *buf, size_t len, int flags,
                                                 struct sockaddr *addr, socklen_t *alen)
{
	return socketcall_cp(recvfrom, fd, buf, len, flags, addr, alen);
}

/* a receive that found nothing, and one that waits first (six
 * arguments each, so that recvfrom's calls of them are jumps) */
static __attribute__((noinline)) ssize_t wait(long fd, void *buf, size_t len, int flags,
                                              struct sockaddr *addr, socklen_t *alen)
{
	return green_syscall_ret(green_sock_recv(fd, buf, len, flags, addr, alen, 1, -EAGAIN, 1));
}

static __attribute__((noinline)) ssize_t wait_first(long fd, void *buf, size_t len, int flags,
                                                    struct sockaddr *addr, socklen_t *alen)
{
	return green_syscall_ret(green_sock_recv(fd, buf, len, flags, addr, alen, 1, 0, 1));
}

/* one jump to each helper, as read's: gdb finds recvfrom as their caller */
__attribute__((optimize("no-shrink-wrap")))
ssize_t recvfrom(int ifd, void *restrict buf, size_t len, int flags, struct sockaddr *restrict addr,
                 socklen_t *restrict alen)
{
	long fd = ifd, r;
	struct green_fd *f = green_fast_fd(fd, len);

	if (!f || (flags & ~GREEN_RECV_FLAGS)) return general(fd, buf, len, flags, addr, alen);
	if (!(flags & MSG_DONTWAIT) && f->miss >= FD_MISS_TRUST)
		return wait_first(fd, buf, len, flags, addr, alen);
	r = green_fast_syscall6(SYS_recvfrom, fd, buf, len, flags | MSG_DONTWAIT, addr, alen);
	if (r >= 0) {
		green_fd_found(green_fd_after(fd));   /* its reads try first */
		return r;
	}
	if (r == -EAGAIN && !(flags & MSG_DONTWAIT)) return wait(fd, buf, len, flags, addr, alen);
	if (green_io_again(r)) return general(fd, buf, len, flags, addr, alen);
	return __syscall_ret(r);   /* the kernel's answer (fastio.h) */
}
