/*
 * write — musl's, with a socket's write in line once threads exist: one
 * look at the descriptor's entry and sendto with MSG_DONTWAIT, finished
 * by waiting when the socket did not take it whole
 * (src/sysio/fastio.h); data written to one end of a socket pair made
 * here wakes a reader waiting on the other (src/sysio/peer.h).  Everything else goes to musl's entry for
 * blocking calls, __syscall_cp, as musl's own write does.  Every path
 * leaves by a jump: the fast one saves no register.
 */
#include <unistd.h>
#include "fastio.h"

static __attribute__((noinline)) ssize_t general(int fd, const void *buf, size_t count)
{
	return syscall_cp(SYS_write, fd, buf, count);
}

/* written to one end of a socket pair whose other end has a list of
 * waiters (green_peer_listed): its readers may go on */
static __attribute__((noinline)) ssize_t paired(int fd, long r)
{
	__green_peer_wake(&__green_fds[__green_fds[fd].peer - 1]);
	return r;
}

static __attribute__((noinline)) ssize_t rest(int fd, const void *buf, size_t count, long r)
{
	return __syscall_ret(__sysio_sock_write(fd, buf, count, 1, r));
}

ssize_t write(int fd, const void *buf, size_t count)
{
	long r;

	if (!green_fast_fd(fd, count)) return general(fd, buf, count);
	r = __syscall(SYS_sendto, fd, buf, count, MSG_DONTWAIT, 0, 0);
	if (r == (long)count) {
		if (__builtin_expect(green_peer_listed(&__green_fds[fd]), 0)) return paired(fd, r);
		return r;
	}
	if (r >= 0 || r == -EAGAIN) return rest(fd, buf, count, r);
	return general(fd, buf, count);   /* the kernel's error, EFAULT's retry */
}
