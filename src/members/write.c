/*
 * write — musl's, with a socket's write in line once threads exist: one
 * look at the descriptor's entry and sendto with MSG_DONTWAIT, finished
 * by waiting when the socket did not take it whole
 * (src/sysio/fastio.h); data written to one end of a socket pair made
 * here wakes a reader waiting on the other (src/sysio/peer.h).  A
 * regular file's write, and a pipe's with RWF_NOWAIT, are made in a
 * helper without the dispatch (green_file_io).  Everything else goes
 * to musl's entry for blocking calls,
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

/* any other kind green knows: a file's plain write, a pipe's attempt
 * with RWF_NOWAIT (fastio.h).  Its general way is its own call, not a
 * jump to general, as read.c's (gdb's tail-call frames). */
static __attribute__((noinline)) ssize_t other(long fd, const void *buf, size_t count)
{
	long r = green_file_io(&__green_fds[fd], SYS_write, fd, (void *)buf, count);

	if (r == GREEN_IO_GENERAL) r = __syscall_cp(SYS_write, fd, buf, count);
	return __syscall_ret(r);
}

/* One jump to general (not shrink-wrapped, which would make two): gdb
 * then finds write as its caller, and green-gdb.py's frame column says
 * a thread waits "in write". */
__attribute__((optimize("no-shrink-wrap")))
ssize_t write(int ifd, const void *buf, size_t count)
{
	long fd = ifd, r;   /* in the system call's register throughout */
	struct green_fd *p = green_fast_entry(fd, count);

	if (!p) return general(fd, buf, count);
	if (p->kind != FD_SOCKET) return other(fd, buf, count);
	r = green_fast_syscall6(SYS_sendto, fd, buf, count, MSG_DONTWAIT, 0, 0);
	if (r == (long)count) {
		/* written to one end of a socket pair whose other end p
		 * has a list of waiters: its readers may go on */
		struct green_fd *w = green_fd_after(fd);

		if (__builtin_expect((p = green_peer_listed(w)) != 0, 0))
			return __green_peer_wake(p, w, r);
		return r;
	}
	if (r >= 0 || r == -EAGAIN) return rest(fd, buf, count, r);
	if (green_io_again(r)) return general(fd, buf, count);
	return __syscall_ret(r);   /* the kernel's error (fastio.h) */
}
