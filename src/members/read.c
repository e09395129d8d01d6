/*
 * read — musl's, with a socket's read in line once threads exist: one
 * look at the descriptor's entry and recvfrom with MSG_DONTWAIT, or a
 * wait for readiness when its reads lately found nothing
 * (src/sysio/fastio.h).  Everything else goes to musl's entry for
 * blocking calls, __syscall_cp, as musl's own read does.  Every path
 * leaves by a jump: the fast one saves no register.
 */
#include <unistd.h>
#include "fastio.h"

static __attribute__((noinline)) ssize_t general(int fd, void *buf, size_t count)
{
	return syscall_cp(SYS_read, fd, buf, count);
}

static __attribute__((noinline)) ssize_t wait(int fd, void *buf, size_t count, long r)
{
	return __syscall_ret(green_sock_read(fd, buf, count, 1, r));
}

ssize_t read(int fd, void *buf, size_t count)
{
	struct green_fd *f = green_fast_fd(fd, count);
	long r;

	if (!f) return general(fd, buf, count);
	if (f->miss >= FD_MISS_TRUST) return wait(fd, buf, count, 0);
	r = __syscall(SYS_recvfrom, fd, buf, count, MSG_DONTWAIT, 0, 0);
	if (r >= 0) {
		f->miss = 0;
		return r;
	}
	if (r == -EAGAIN) return wait(fd, buf, count, r);
	return general(fd, buf, count);   /* the kernel's error, EFAULT's retry */
}
