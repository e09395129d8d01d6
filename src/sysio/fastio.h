/*
 * fastio.h — the fast path of a read or write on a socket, in line in
 * read and write (src/members/read.c, write.c).
 *
 * What a server's connection threads do most: a read that finds its
 * data, a write the socket takes whole, a read that must wait.  Each
 * looks at the descriptor's one entry (fdtab.h) and makes the system
 * call with MSG_DONTWAIT, as the engine's general path (dispatch.c,
 * fdio.c) would, without its layers:
 *
 *   read   a socket whose reads lately found nothing (fdkind.c) waits
 *          for readiness first (__sysio_sock_read); any other tries
 *          recvfrom, and only an EAGAIN goes on to wait;
 *   write  sendto; all of it taken: done; a part, or EAGAIN, goes on to
 *          wait and finish (__sysio_sock_write).
 *
 * recvfrom and sendto themselves (src/members/; recv and send call
 * them) take the same paths with the program's flags, when these change
 * neither whether the call blocks nor how much it waits for
 * (GREEN_RECV_FLAGS, GREEN_SEND_FLAGS), and a send with no address.
 *
 * A write to one end of a socket pair made in this process wakes the
 * threads waiting to read the other end, and hands the CPU to the one
 * reader of a request after a reply (peer.h, peer.c); a read that finds
 * data marks its end as read since its last write (green_fd_found).
 *
 * Anything else (another kind, a kind not yet learnt, a read or write
 * of 0 bytes, a number beyond the table) answers GREEN_IO_GENERAL, and
 * the call takes the general path, musl's entry for blocking calls
 * (src/stubs/__syscall_cp.c), as before threads exist, in a posix_spawn
 * child, or with a cancel pending.  So does a call that failed with
 * EFAULT, which the general path makes again once a parked copied
 * thread's stack is loaded: GREEN_IO_GENERAL is -EFAULT, so that the
 * caller's one test covers both.
 *
 * Budgets (tests/tools/budget.sh, docs/fastpaths.md): a read that finds data
 * and a write taken whole, each under 60 instructions with musl's
 * wrapper, above the system call itself.
 */
#ifndef GREEN_FASTIO_H
#define GREEN_FASTIO_H
#include <errno.h>
#include <sys/socket.h>
#include <sys/uio.h>
/* <sys/epoll.h> brings musl's <endian.h>, whose byte-swap helpers GCC's
 * -Wparentheses dislikes (musl's headers are not system headers here) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wparentheses"
#include <sys/epoll.h>
#pragma GCC diagnostic pop
#include "base/section.h"
#include "sched/tick.h"
#include "fdtab.h"
#include "fdwait.h"
#include "io.h"
#include "ioq.h"
#include "peer.h"

#define GREEN_IO_GENERAL (-EFAULT)

/* The program's flags a fast receive or send passes on: none makes it
 * wait for more than some data or some room (MSG_WAITALL does), and
 * none asks for what never waits (MSG_ERRQUEUE, MSG_OOB). */
#define GREEN_RECV_FLAGS (MSG_PEEK | MSG_TRUNC | MSG_CMSG_CLOEXEC | MSG_NOSIGNAL | MSG_DONTWAIT)
#define GREEN_SEND_FLAGS (MSG_NOSIGNAL | MSG_MORE | MSG_DONTWAIT)

/* A fast call's error that the general path must meet by making the
 * call again: EFAULT (a buffer in a parked copied thread's stack, which
 * the general path loads), ENOTSOCK (the number reused for another kind
 * of file by a way green did not see).  Any other is the kernel's
 * answer, and is returned: a second call would not see it again (a
 * connection's reset is reported once) or would do twice what the first
 * did (a write to a closed pipe raises SIGPIPE). */
static inline int green_io_again(long r)
{
	return r == -EFAULT || r == -ENOTSOCK;
}

/* fdio.c: the rest of a socket read that must wait (r: -EAGAIN from a
 * first attempt, 0 when it waits first: green_sock_read, below, out of
 * line), of a write that the socket did not take whole (r: the first
 * attempt's result; flags: the program's, GREEN_SEND_FLAGS but
 * MSG_DONTWAIT) */
hidden long __sysio_sock_read(int fd, void *buf, size_t len, int cp, long r);
hidden long __sysio_sock_write(int fd, const void *buf, size_t len, int flags, int cp, long r);
hidden int __green_fd_wait(int fd, int events, uint64_t deadline, enum gwait kind, int cp);
hidden long __sysio_waited(int r, int cp);

/* sets.c: the wait of an epoll_wait (a: epoll_pwait's six arguments),
 * of a poll (ms: its timeout) and of a select (ts: its timeout, 0 for
 * none) whose zero-timeout probe, made in line by the caller, found
 * nothing (src/members/epoll_wait.c, poll_wait.c, select.c) */
struct pollfd;
struct timespec;
hidden long __sysio_epoll_empty(const long *a, int cp);
hidden long __sysio_poll_empty(struct pollfd *p, unsigned long n, int ms, int cp);
hidden long __sysio_select_empty(int n, long *sets[3], const struct timespec *ts, int cp);

/* A fast path's system call, of six arguments: reached only by a thread
 * whose io_slow is 0 (green_fast_caller), never in a recorded or
 * replayed run (GREEN_SLOW_RECORD), so without the recorder's test where
 * the CPU's header has such a call (x86_64's syscall_arch.h). */
#ifdef GREEN_UNRECORDED_SYSCALL6
#define green_fast_syscall6(n, a, b, c, d, e, f) \
	__green_unrecorded_syscall6(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))
#else
#define green_fast_syscall6(n, a, b, c, d, e, f) __syscall(n, a, b, c, d, e, f)
#endif

/* recvfrom with MSG_DONTWAIT; fast: by a fast path (green_fast_syscall6) */
static inline __attribute__((always_inline)) long green_recv_nowait(int fd, void *buf, size_t len, int flags,
                                                                 void *addr, void *alen, int fast)
{
	if (fast) return green_fast_syscall6(SYS_recvfrom, fd, buf, len, flags | MSG_DONTWAIT, addr, alen);
	return __syscall(SYS_recvfrom, fd, buf, len, flags | MSG_DONTWAIT, addr, alen);
}

/*
 * One wait for fd's (entry f's) readiness to read: the usual one in
 * line (io.h), io.c's otherwise, a cancellation point when cp.  0 when
 * the call is to be tried, else the -errno it returns.
 */
static inline __attribute__((always_inline)) long green_sock_wait(int fd, struct green_fd *f, int cp)
{
	struct green_thread *self = __green_cur;
	int w;

	if (cp) self->canceling = 1;
	GREEN_ENTER();
	/* green_cancel_due, canceling known when cp (a store the section's
	 * barrier would otherwise have read back) */
	w = (cp || self->canceling) && self->cancel_pending && !self->cancel_disable ? ECANCELED
	    : green_usual_wait(self, fd, EPOLLIN, f, io_key(fd, GREEN_IN), GW_FD);
	GREEN_LEAVE();
	if (cp) self->canceling = 0;
	if (__builtin_expect(w != 0, 0)) {   /* not the usual wait, or ended by a cancel or EBADF */
		if (w < 0) w = __green_fd_wait(fd, GREEN_IN, GREEN_NO_DEADLINE, GW_FD, cp);
		return w ? __sysio_waited(w, cp) : 0;
	}
	return 0;
}

/* fdio.c: the waits and tries after a try that found nothing again */
hidden long __sysio_sock_recv_more(int fd, void *buf, size_t len, int flags, void *addr, void *alen, int cp);

/*
 * A read of a socket (fd in the table) that found nothing (r -EAGAIN)
 * or waits first (r 0): wait for readiness, then try; a descriptor the
 * program made non-blocking gets the kernel's answer instead.  flags,
 * addr and alen are recvfrom's (GREEN_RECV_FLAGS but MSG_DONTWAIT), 0
 * for a read.  A read that
 * waited first and was woken by the first look at the kernel after it
 * parked, no other thread run in between, would have found its data by
 * trying: its descriptor's reads try first again (fdkind.c).  In line
 * in each caller (read.c has two): a call here would be a frame more on
 * every wait.  The first wait and try only: a try after it that finds
 * nothing (another thread took the data first) goes on out of line,
 * so that the usual path keeps no loop's values on its stack.
 */
static inline __attribute__((always_inline)) long green_sock_recv(int fd, void *buf, size_t len, int flags,
                                                               void *addr, void *alen, int cp, long r,
                                                               int fast)
{
	struct green_fd *f;
	unsigned long sw = __green_nswitch;
	int first = !r;

	/* what the callers looked at: the number has an entry (so the
	 * wait's key is made with no mask) */
	if ((unsigned long)fd >= GREEN_FDS_MAX) __builtin_unreachable();
	f = &__green_fds[(unsigned long)fd];
	__asm__("" : "+r"(f));   /* one address, not made again after each call GCC sees */

	if (green_fd_nonblocking(f, fd)) return first ? green_recv_nowait(fd, buf, len, flags, addr, alen, fast) : r;
	if (!first) green_fd_missed(f);   /* a try found nothing */
	if ((r = green_sock_wait(fd, f, cp))) return r;
	r = green_recv_nowait(fd, buf, len, flags, addr, alen, fast);
	/* an error looked at once, as the caller's green_syscall_ret does */
	if (__builtin_expect((unsigned long)r > -4096UL, 0) && r == -EAGAIN)
		return __sysio_sock_recv_more(fd, buf, len, flags, addr, alen, cp);
	if (first && sw == __green_nswitch) f->miss = 0;   /* it waited first: trying would have found it */
	if (fast) f->turn = 1;   /* read since its last write (fdtab.h); recorded runs never (record.md) */
	return r;
}

/* __syscall_ret with its test in line, for the waits' results (read.c,
 * recvfrom.c): data read returns with no call */
static inline long green_syscall_ret(long r)
{
	if (__builtin_expect((unsigned long)r > -4096UL, 0)) return __syscall_ret(r);
	return r;
}

/* read's: no flags, no address */
static inline __attribute__((always_inline)) long green_sock_read(int fd, void *buf, size_t len, int cp, long r,
                                                               int fast)
{
	return green_sock_recv(fd, buf, len, 0, 0, 0, cp, r, fast);
}

static inline long green_fast_io(long nr, long fd, long buf, long len, int cp)
{
	struct green_fd *f;
	long r;

	if ((unsigned long)fd >= GREEN_FDS_MAX) return GREEN_IO_GENERAL;
	f = &__green_fds[fd];
	if (f->kind != FD_SOCKET || !len) return GREEN_IO_GENERAL;
	if (nr == SYS_read) {
		if (f->miss >= FD_MISS_TRUST) return __sysio_sock_read(fd, (void *)buf, len, cp, 0);
		r = __syscall(SYS_recvfrom, fd, buf, len, MSG_DONTWAIT, 0, 0);
		if (r == -EAGAIN) return __sysio_sock_read(fd, (void *)buf, len, cp, r);
		if (green_io_again(r)) return GREEN_IO_GENERAL;
		f->miss = 0;
		return r;
	}
	r = __syscall(SYS_sendto, fd, buf, len, MSG_DONTWAIT, 0, 0);
	if (r == len) {
		green_peer_wrote(f);
		return r;
	}
	if (green_io_again(r)) return GREEN_IO_GENERAL;
	return __sysio_sock_write(fd, (const void *)buf, len, 0, cp, r);
}

/* May the caller take a fast path?  Threads exist, and it is not a
 * posix_spawn child (kcrit) and has no cancel pending: one byte of the
 * running thread's (io_slow, gthread.h; the initial thread's says
 * whether threads exist). */
static inline int green_fast_caller(void)
{
	return !__green_cur->io_slow;
}

/* fd's entry when a read or write of len bytes on it may take a fast
 * path: the caller may (green_fast_caller), fd has an entry; else 0 */
static inline struct green_fd *green_fast_entry(long fd, unsigned long len)
{
	if ((unsigned long)fd >= GREEN_FDS_MAX || !len || !green_fast_caller()) return 0;
	return &__green_fds[fd];
}

/* pread's or pwrite's system call (nr) of len bytes at offset ofs, at
 * once when fd is a regular file, block device or directory
 * (FD_NEVER_WAITS: the plain call, as the dispatch makes it); else, or
 * on EFAULT, GREEN_IO_GENERAL (src/members/pread.c, pwrite.c) */
static inline long green_file_at(long nr, int fd, const void *buf, size_t len, off_t ofs)
{
	struct green_fd *f = green_fast_entry(fd, len);
	long r;

	if (!f || f->kind != FD_NEVER_WAITS) return GREEN_IO_GENERAL;
	r = __syscall(nr, fd, buf, len, __SYSCALL_LL_PRW(ofs));
	return r == -EFAULT ? GREEN_IO_GENERAL : r;
}

/* fd's entry when the fast path takes a read or write of len bytes on
 * it as a socket's; else 0 */
static inline struct green_fd *green_fast_fd(long fd, unsigned long len)
{
	struct green_fd *f = green_fast_entry(fd, len);

	return f && f->kind == FD_SOCKET ? f : 0;
}

/* fdio.c: the rest of a read or write of a kind that takes RWF_NOWAIT
 * (a pipe's, say) whose attempt in line (green_file_io) wrote done
 * bytes and no more, or found nothing (done 0) */
hidden long __sysio_io_rest(int fd, int ev, void *buf, size_t len, size_t done, int cp);

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 8
#endif

/*
 * A read or write (nr SYS_read, SYS_write) of any other kind green knows
 * (f, fd's entry, from green_fast_entry): a regular file, block device
 * or directory (FD_NEVER_WAITS) is the plain call, as the dispatch makes
 * it (fdkind.c); a kind that takes RWF_NOWAIT (FD_WAITS: a pipe, a
 * character device) is preadv2 or pwritev2 with it, and what it leaves,
 * nothing found or a write taken in part, goes on in fdio.c without a
 * second attempt.  A write whose data went whole to one end of a pipe
 * made here wakes the other end's readers (peer.h).  A kind not yet
 * learnt, one that refused RWF_NOWAIT (FD_WAITS_NO_NOWAIT: its
 * readiness is checked first), a read that waits first (fdkind.c), and
 * the errors the general path meets by calling again (EFAULT: a parked
 * copied thread's stack; a refusal of RWF_NOWAIT) answer
 * GREEN_IO_GENERAL, as green_fast_io's do.  Out of line in read.c and
 * write.c, which keep the socket's path in line.
 */
static inline long green_file_io(struct green_fd *f, long nr, long fd, void *buf, size_t len)
{
	struct iovec iov = { buf, len };
	long r;

	if (f->kind == FD_NEVER_WAITS) {
		r = __syscall(nr, fd, buf, len);
		return r == -EFAULT ? GREEN_IO_GENERAL : r;
	}
	if (f->kind != FD_WAITS) return GREEN_IO_GENERAL;
	if (nr == SYS_read) {
		if (f->miss >= FD_MISS_TRUST) return GREEN_IO_GENERAL;
		r = __syscall(SYS_preadv2, fd, &iov, 1, -1, 0, RWF_NOWAIT);
		if (r >= 0) {
			green_fd_after(fd)->miss = 0;
			return r;
		}
		if (r == -EAGAIN) return __sysio_io_rest(fd, GREEN_IN, buf, len, 0, 1);
	} else {
		r = __syscall(SYS_pwritev2, fd, &iov, 1, -1, 0, RWF_NOWAIT);
		if (r > 0) green_peer_wrote(green_fd_after(fd));
		if (r == (long)len) return r;
		if (r >= 0 || r == -EAGAIN) return __sysio_io_rest(fd, GREEN_OUT, buf, len, r > 0 ? r : 0, 1);
	}
	if (r == -EFAULT || r == -EOPNOTSUPP || r == -ENOSYS || r == -EINVAL) return GREEN_IO_GENERAL;
	return r;
}

#endif
