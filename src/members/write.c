/*
 * write — musl's, with a socket's write in line once threads exist: one
 * look at the descriptor's entry and sendto with MSG_DONTWAIT, finished
 * by waiting when the socket did not take it whole
 * (src/sysio/fastio.h); data written to one end of a socket pair made
 * here wakes a reader waiting on the other (src/sysio/peer.h).
 * Everything else goes to musl's entry for blocking calls,
 * __syscall_cp, as musl's own write does.  Every path leaves by a jump:
 * the fast one saves one register (fdtab.h, green_fd_after).
 */
#include <unistd.h>
#include "fastio.h"

static __attribute__((noinline)) ssize_t general(long fd, const void *buf, size_t count)
{
	return syscall_cp(SYS_write, fd, buf, count);
}

static __attribute__((noinline)) ssize_t rest(long fd, const void *buf, size_t count, long r)
{
	return __syscall_ret(__sysio_sock_write(fd, buf, count, 0, 1, r));
}

/* One jump to general (not shrink-wrapped, which would make two): gdb
 * then finds write as its caller, and green-gdb.py's frame column says
 * a thread waits "in write". */
__attribute__((optimize("no-shrink-wrap")))
ssize_t write(int ifd, const void *buf, size_t count)
{
	long fd = ifd, r;   /* in the system call's register throughout */
	struct green_fd *p;

	if (!green_fast_fd(fd, count)) return general(fd, buf, count);
	r = __syscall(SYS_sendto, fd, buf, count, MSG_DONTWAIT, 0, 0);
	if (r == (long)count) {
		/* written to one end of a socket pair whose other end p
		 * has a list of waiters: its readers may go on */
		if (__builtin_expect((p = green_peer_listed(green_fd_after(fd))) != 0, 0))
			return __green_peer_wake(p, r);
		return r;
	}
	if (r >= 0 || r == -EAGAIN) return rest(fd, buf, count, r);
	if (green_io_again(r)) return general(fd, buf, count);
	return __syscall_ret(r);   /* the kernel's error (fastio.h) */
}
