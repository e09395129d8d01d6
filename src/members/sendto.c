/*
 * sendto — musl's (send calls it), with a connected socket's send in
 * line once threads exist, as write's (write.c): one look at the
 * descriptor's entry and sendto with the program's flags and
 * MSG_DONTWAIT, finished by waiting when the socket did not take it
 * whole (src/sysio/fastio.h); data sent to one end of a socket pair made
 * here wakes a reader waiting on the other (src/sysio/peer.h).  A send
 * with an address, flags beyond GREEN_SEND_FLAGS, and everything else go
 * to musl's entry for blocking calls, __syscall_cp, as musl's own sendto
 * does.  A send the program asked not to wait (MSG_DONTWAIT) is its one
 * system call.
 */
#include <sys/socket.h>
#include "fastio.h"

static __attribute__((noinline)) ssize_t general(long fd, const void *buf, size_t len, int flags,
                                                 const struct sockaddr *addr, socklen_t alen)
{
	return socketcall_cp(sendto, fd, buf, len, flags, addr, alen);
}

/* the socket took a part, or nothing (r: -EAGAIN) */
static __attribute__((noinline)) ssize_t rest(long fd, const void *buf, size_t len, int flags, long r)
{
	if (flags & MSG_DONTWAIT) {
		if (r > 0) green_peer_wrote(&__green_fds[fd]);
		return __syscall_ret(r);
	}
	return __syscall_ret(__sysio_sock_write(fd, buf, len, flags, 1, r));
}

/* one jump to general, as write's: gdb finds sendto as its caller */
__attribute__((optimize("no-shrink-wrap")))
ssize_t sendto(int ifd, const void *buf, size_t len, int flags, const struct sockaddr *addr, socklen_t alen)
{
	long fd = ifd, r;
	struct green_fd *p;

	if (!green_fast_fd(fd, len) || addr || (flags & ~GREEN_SEND_FLAGS))
		return general(fd, buf, len, flags, addr, alen);
	r = green_fast_syscall6(SYS_sendto, fd, buf, len, flags | MSG_DONTWAIT, 0, 0);
	if (r == (long)len) {
		struct green_fd *w = green_fd_after(fd);

		if (__builtin_expect((p = green_peer_listed(w)) != 0, 0))
			return __green_peer_wake(p, w, r);
		return r;
	}
	if (r >= 0 || r == -EAGAIN) return rest(fd, buf, len, flags, r);
	if (green_io_again(r)) return general(fd, buf, len, flags, addr, alen);
	return __syscall_ret(r);   /* the kernel's answer (fastio.h) */
}
