/*
 * read — musl's, with a socket's read in line once threads exist: one
 * look at the descriptor's entry and recvfrom with MSG_DONTWAIT, or a
 * wait for readiness when its reads lately found nothing
 * (src/sysio/fastio.h).  A regular file's read, and a pipe's with
 * RWF_NOWAIT, are made in a helper without the dispatch
 * (green_file_io).  Everything else goes to musl's entry for blocking
 * calls, __syscall_cp, as musl's own read does.  Every path
 * leaves by a jump: the fast one saves one register, which keeps the
 * entry's address across the system call for the one store after it
 * (made again from the number, fdtab.h's green_fd_after, the address
 * cost GCC two instructions more and the same register).
 */
#include <unistd.h>
#include "fastio.h"

/* wait's values across its switch in its frame (src/arch/contract.h) */
GREEN_ARCH_WAITS_ON_STACK

static __attribute__((noinline)) ssize_t general(long fd, void *buf, size_t count)
{
	return syscall_cp(SYS_read, fd, buf, count);
}

/* a read that found nothing (r: -EAGAIN), and one that waits first */
static __attribute__((noinline)) ssize_t wait(long fd, void *buf, size_t count, long r)
{
	return green_syscall_ret(green_sock_read(fd, buf, count, 1, r, 1));
}

static __attribute__((noinline)) ssize_t wait_first(long fd, void *buf, size_t count)
{
	return green_syscall_ret(green_sock_read(fd, buf, count, 1, 0, 1));
}

/* any other kind green knows: a file's plain read, a pipe's attempt
 * with RWF_NOWAIT (fastio.h).  Its general way is its own call, not a
 * jump to general: gdb finds read above a frame only along one chain of
 * jumps from it (its tail-call frames), and read jumps to general too. */
static __attribute__((noinline)) ssize_t other(long fd, void *buf, size_t count)
{
	long r = green_file_io(&__green_fds[fd], SYS_read, fd, buf, count);

	if (r == GREEN_IO_GENERAL) r = __syscall_cp(SYS_read, fd, buf, count);
	return __syscall_ret(r);
}

/* One jump to each helper (not shrink-wrapped, which would make two
 * to general): gdb then finds read as their caller, and green-gdb.py's
 * frame column says a thread waits "in read". */
__attribute__((optimize("no-shrink-wrap")))
ssize_t read(int ifd, void *buf, size_t count)
{
	long fd = ifd, r;   /* in the system call's register throughout */
	struct green_fd *f = green_fast_entry(fd, count);

	if (!f) return general(fd, buf, count);
	if (f->kind != FD_SOCKET) return other(fd, buf, count);
	if (f->miss >= FD_MISS_TRUST) return wait_first(fd, buf, count);
	r = green_fast_syscall6(SYS_recvfrom, fd, buf, count, MSG_DONTWAIT, 0, 0);
	if (r >= 0) {
		green_fd_found(f);   /* its reads try first */
		return r;
	}
	if (r == -EAGAIN) return wait(fd, buf, count, r);
	if (green_io_again(r)) return general(fd, buf, count);
	return __syscall_ret(r);   /* the kernel's error (fastio.h) */
}
