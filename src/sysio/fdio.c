/*
 * fdio.c — descriptor I/O (read, write and their vector and
 * positioned forms, recv*, send*, and accept on a listener the program
 * made non-blocking: listener.c) and connect (sysio.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "fdwait.h"
#include "fastio.h"
#include "sysio.h"

/* ---- descriptor I/O: one call described so it can be retried */

struct io {
	long nr, a[6];
	int fd, ev, how;
	int flag_arg;          /* BY_FLAGS: which argument takes MSG_DONTWAIT */
	struct iovec *iov;     /* BY_IOV: the buffers (a private copy for writes) */
	int cnt;
	off_t off;             /* BY_IOV: -1 for the file position */
	/* sendmsg, and recvmsg with MSG_WAITALL, that went part of the way:
	 * the program's message (user), and a private copy of it (m) and of
	 * its buffers (mv, malloc'd unless mv_local), which the rest of the
	 * call advances (msg_advance) */
	struct msghdr *user, m;
	struct iovec *mv, mv_local[LOCAL_IOV];
	int wait_all;          /* a receive that waits for all: wait_all() */
};

static long try_plain(struct io *c)
{
	if (c->how == BY_IOV) {
		int rd = c->ev == GREEN_IN;
		if (c->off < 0) return __syscall(rd ? SYS_readv : SYS_writev, c->fd, c->iov, c->cnt);
		return __syscall(rd ? SYS_preadv : SYS_pwritev, c->fd, c->iov, c->cnt, c->off, 0);
	}
	return __syscall(c->nr, c->a[0], c->a[1], c->a[2], c->a[3], c->a[4], c->a[5]);
}

/* The call without blocking; -EOPNOTSUPP when there is no such form. */
static long try_nowait(struct io *c)
{
	long r, a[6];

	switch (c->how) {
	case BY_IOV:
		if (__green_fd_no_nowait(c->fd)) return -EOPNOTSUPP;
		r = __syscall(c->ev == GREEN_IN ? SYS_preadv2 : SYS_pwritev2,
		              c->fd, c->iov, c->cnt, (long)c->off, 0, RWF_NOWAIT);
		if (r == -EOPNOTSUPP || r == -ENOSYS || r == -EINVAL) {
			__green_fd_refused_nowait(c->fd);
			return -EOPNOTSUPP;
		}
		return r;
	case BY_FLAGS:
		memcpy(a, c->a, sizeof a);
		a[c->flag_arg] |= MSG_DONTWAIT;
		return __syscall(c->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
	return -EOPNOTSUPP;
}

/* A write after a readiness check: at most PIPE_BUF bytes, which a
 * writable pipe or FIFO is sure to take without blocking.  (Never a
 * regular file's: those do not come here.) */
static long try_plain_small(struct io *c)
{
	struct io small = *c;
	struct iovec v[LOCAL_IOV];
	size_t room = 4096;

	if (c->how != BY_IOV || c->ev != GREEN_OUT) return try_plain(c);
	small.iov = v;
	for (small.cnt = 0; small.cnt < c->cnt && small.cnt < LOCAL_IOV && room; small.cnt++) {
		v[small.cnt] = c->iov[small.cnt];
		if (v[small.cnt].iov_len > room) v[small.cnt].iov_len = room;
		room -= v[small.cnt].iov_len;
	}
	return try_plain(&small);
}

/* One attempt: the result, or *park set when the caller must wait.  A
 * kind without a non-blocking form is checked for readiness and called
 * with no switch in between. */
static long attempt(struct io *c, int *park)
{
	long r = try_nowait(c);

	*park = 0;
	if (r == -EOPNOTSUPP) {
		GREEN_ENTER();
		if (__sysio_fd_ready(c->fd, c->ev)) r = try_plain_small(c);
		else if (__green_fd_nonblocking(c->fd)) r = -EAGAIN;
		else *park = 1;
		GREEN_LEAVE();
		return r;
	}
	if (r != -EAGAIN) return r;
	if (c->how == BY_FLAGS && (c->a[c->flag_arg] & MSG_DONTWAIT)) return r;
	if (__green_fd_nonblocking(c->fd)) return r;
	*park = 1;
	return r;
}

/* n bytes of the cnt buffers at *iov went: the rest of them (*iov and
 * *cnt moved past those done and any empty); 0 when none is left */
static int iov_advance(struct iovec **iov, int *cnt, size_t n)
{
	struct iovec *v = *iov;
	int k = *cnt;

	while (k && n >= v->iov_len) {
		n -= v->iov_len;
		v++;
		k--;
	}
	if (k) {
		v->iov_base = (char *)v->iov_base + n;
		v->iov_len -= n;
	}
	while (k && !v->iov_len) v++, k--;
	*iov = v;
	*cnt = k;
	return k != 0;
}

/* n bytes of a sendmsg or recvmsg went: the rest of its buffers, in
 * the private copy of its message made at the first part (the kernel
 * had read the program's then, so the copy cannot fault); 0 when
 * nothing is left, or no copy could be made (the call ends with what
 * it did, as a signal would end it).  What the first part received
 * beside the data (the sender's address, control messages) is the
 * program's, and the later parts ask for none. */
static int msg_advance(struct io *c, long n)
{
	struct msghdr *m = &c->m;
	size_t cnt;

	if (!c->user) {
		c->user = (struct msghdr *)c->a[1];
		*m = *c->user;
		cnt = m->msg_iovlen;
		c->mv = cnt <= LOCAL_IOV ? c->mv_local : malloc(cnt * sizeof *c->mv);
		if (!c->mv) return 0;
		memcpy(c->mv, m->msg_iov, cnt * sizeof *c->mv);
		m->msg_iov = c->mv;
		m->msg_name = 0;
		m->msg_namelen = 0;
		m->msg_control = 0;
		m->msg_controllen = 0;
		c->a[1] = (long)m;
	}
	return iov_advance(&m->msg_iov, &m->msg_iovlen, n);
}

/* A receive with MSG_WAITALL (and not MSG_PEEK, whose parts would each
 * see the same data) on a stream socket, which the kernel would end
 * only with all it asked for, an end of stream or an error: each part
 * is taken without waiting (MSG_DONTWAIT cuts the kernel's wait short),
 * and the rest waited for here.  A datagram's receive is one part
 * whatever its flags. */
static int wait_all(const struct io *c)
{
	int type = 0;
	socklen_t len = sizeof type;
	long fl;

	if (c->how != BY_FLAGS || (c->nr != SYS_recvfrom && c->nr != SYS_recvmsg)) return 0;
	fl = c->a[c->flag_arg];
	if ((fl & (MSG_WAITALL | MSG_PEEK | MSG_DONTWAIT)) != MSG_WAITALL) return 0;
	return !__socketcall(getsockopt, c->fd, SOL_SOCKET, SO_TYPE, &type, &len, 0) && type == SOCK_STREAM;
}

/* A call went part of the way (n bytes): move on; 0 when nothing is
 * left, or when a part is the whole call (a read, but for wait_all's). */
static int advance(struct io *c, long n)
{
	if (c->how == BY_FLAGS) {
		if (c->nr == SYS_sendmsg || c->nr == SYS_recvmsg) return msg_advance(c, n);
		if (c->nr != SYS_sendto && c->nr != SYS_recvfrom) return 0;
		c->a[1] += n;
		c->a[2] -= n;
		return c->a[2] > 0;
	}
	if (c->off >= 0) c->off += n;
	return iov_advance(&c->iov, &c->cnt, n);
}

/* A read whose first attempt may be guessed (fdkind.c), unless the
 * program made the descriptor non-blocking (asked only then: the
 * answer is known by the time reads have found nothing). */
static int may_guess(const struct io *c)
{
	if (c->ev != GREEN_IN || c->how == BY_READY) return 0;
	return c->how != BY_FLAGS || !(c->a[c->flag_arg] & MSG_DONTWAIT);
}

/* c's call, until done or failed; tried: its first attempt, made by
 * the caller, found nothing (and the program left the descriptor
 * blocking), so the wait comes first */
static long do_io(struct io *c, int cp, int tried)
{
	long r = -EAGAIN, done = 0;
	int park, guess = may_guess(c);
	struct green_fd *f;

	for (;;) {
		if (tried) {
			park = 1;
			if (guess) __green_fd_read_tried(c->fd, 1);
			tried = 0;
		} else if (guess && __green_fd_read_waits_first(c->fd) && !__green_fd_nonblocking(c->fd)) {
			park = 1;     /* as an attempt that found nothing */
		} else {
			r = attempt(c, &park);
			if (guess) __green_fd_read_tried(c->fd, park);
		}
		guess = 0;    /* a woken read always tries */
		if (park) {
			if (!(r = __sysio_waited(__green_fd_wait(c->fd, c->ev, GREEN_NO_DEADLINE, GW_FD, cp), cp))) continue;
			return done ? done : r;
		}
		if (r <= 0) return done ? done : r;
		if (c->ev == GREEN_OUT && (f = green_fd(c->fd))) green_peer_wrote(f);
		done += r;
		/* a read is one part, but a receive that waits for all (known
		 * at its first part, unless that was all) */
		if (c->ev == GREEN_IN && done == r)
			c->wait_all = !(c->nr == SYS_recvfrom && r == c->a[2]) && wait_all(c);
		if ((c->ev == GREEN_IN && !c->wait_all) || !advance(c, r)) return done;
	}
}

hidden long __sysio_io_iov(int fd, int ev, const struct iovec *iov, int cnt, off_t off, int cp)
{
	struct iovec local[LOCAL_IOV], *copy = (struct iovec *)iov;
	struct io c = { .fd = fd, .ev = ev, .how = BY_IOV, .cnt = cnt, .off = off };
	long r;

	if (cnt < 0) return -EINVAL;
	if (ev == GREEN_OUT && cnt) {   /* writes advance a private copy */
		copy = cnt <= LOCAL_IOV ? local : malloc(cnt * sizeof *iov);
		if (!copy) return -ENOMEM;
		memcpy(copy, iov, cnt * sizeof *iov);
	}
	c.iov = copy;
	r = do_io(&c, cp, 0);
	if (copy != local && copy != iov) free(copy);
	return r;
}

hidden long __sysio_io_buf(int fd, int ev, void *buf, size_t len, off_t off, int cp)
{
	struct iovec iov = { buf, len };
	return __sysio_io_iov(fd, ev, &iov, 1, off, cp);
}

/* A read or write of len bytes at buf on fd, whose first attempt, made
 * in line (src/members/read.c, write.c: RWF_NOWAIT), wrote done bytes
 * of the write and no more, or found nothing (done 0): the rest, as
 * do_io goes on, unless the program made fd non-blocking. */
hidden long __sysio_io_rest(int fd, int ev, void *buf, size_t len, size_t done, int cp)
{
	struct iovec iov = { (char *)buf + done, len - done };
	struct io c = { .fd = fd, .ev = ev, .how = BY_IOV, .iov = &iov, .cnt = 1, .off = -1 };
	long r;

	if (__green_fd_nonblocking(fd)) return done ? (long)done : -EAGAIN;
	r = do_io(&c, cp, 1);
	return !done ? r : r > 0 ? (long)done + r : (long)done;
}

hidden long __sysio_io_call(long nr, const long *a, int ev, int how, int flag_arg, int cp)
{
	struct io c = { .nr = nr, .fd = a[0], .ev = ev, .how = how, .flag_arg = flag_arg };
	long r;

	memcpy(c.a, a, sizeof c.a);
	r = do_io(&c, cp, 0);
	if (c.user && c.nr == SYS_recvmsg)   /* the last part's flags (MSG_TRUNC, ...) */
		c.user->msg_flags = c.m.msg_flags;
	if (c.mv != c.mv_local) free(c.mv);
	return r;
}

/* ---- a socket's read and write past the fast path (fastio.h) */

hidden long __sysio_sock_recv_more(int fd, void *buf, size_t len, int flags, void *addr, void *alen, int cp)
{
	struct green_fd *f = &__green_fds[fd];
	long r;

	if ((unsigned long)fd >= GREEN_FDS_MAX) __builtin_unreachable();   /* as green_sock_recv's */
	do {
		if ((r = green_sock_wait(fd, f, cp))) return r;
		r = green_recv_nowait(fd, buf, len, flags, addr, alen, 0);
	} while (r == -EAGAIN);
	return r;
}

hidden long __sysio_sock_read(int fd, void *buf, size_t len, int cp, long r)
{
	return green_sock_read(fd, buf, len, cp, r, 0);
}

/* A write the socket did not take whole (r: the first attempt's
 * result): the rest in pieces, as a blocking write would, unless the
 * program made the descriptor non-blocking.  flags: send's (fastio.h). */
hidden long __sysio_sock_write(int fd, const void *buf, size_t len, int flags, int cp, long r)
{
	size_t done = 0;

	for (;;) {
		if (r >= 0) {
			done += r;
			if (r) green_peer_wrote(&__green_fds[fd]);
			if (done == len) return done;
		} else if (r != -EAGAIN) {
			return done ? (long)done : r;
		}
		if (__green_fd_nonblocking(fd)) return done ? (long)done : r;
		if ((r = __sysio_waited(__green_fd_wait(fd, GREEN_OUT, GREEN_NO_DEADLINE, GW_FD, cp), cp)))
			return done ? (long)done : r;
		r = __syscall(SYS_sendto, fd, (const char *)buf + done, len - done, flags | MSG_DONTWAIT, 0, 0);
	}
}

/* ---- connect: started non-blocking, finished by waiting writable */

static long connect_start(int fd, long addr, long len, long fl)
{
	long r;
	GREEN_ENTER();
	__syscall(SYS_fcntl, fd, F_SETFL, fl | O_NONBLOCK);
	r = __syscall(SYS_connect, fd, addr, len);
	__syscall(SYS_fcntl, fd, F_SETFL, fl);
	GREEN_LEAVE();
	return r;
}

hidden long __sysio_connect(int fd, long addr, long len, int cp)
{
	long fl = __syscall(SYS_fcntl, fd, F_GETFL), r;
	unsigned step = 0;
	int err;
	socklen_t sl = sizeof err;

	if (fl < 0 || (fl & O_NONBLOCK)) return __syscall(SYS_connect, fd, addr, len);
	r = connect_start(fd, addr, len, fl);
	while (r == -EAGAIN) {   /* a local listener's backlog is full */
		if ((r = __sysio_waited(__green_retry_wait(GW_RETRY, (void *)(long)fd, &step, GREEN_NO_DEADLINE, cp), cp))) return r;
		r = connect_start(fd, addr, len, fl);
	}
	if (r != -EINPROGRESS) return r;
	do {
		if ((r = __sysio_waited(__green_fd_wait(fd, GREEN_OUT, GREEN_NO_DEADLINE, GW_FD, cp), cp))) return r;
	} while (!__sysio_fd_ready(fd, GREEN_OUT));
	r = __syscall(SYS_getsockopt, fd, SOL_SOCKET, SO_ERROR, &err, &sl);
	return r < 0 ? r : -err;
}
