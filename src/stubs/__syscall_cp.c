/*
 * __syscall_cp.c — musl's entry for system calls that are cancellation
 * points, and the dispatch that makes the blocking ones park only the
 * calling thread.
 *
 * About forty of musl's functions reach the kernel through here: read,
 * write, accept, connect, recv*, send*, poll, select, waitpid, open,
 * fcntl(F_SETLKW), msgrcv, mq_*, tcdrain, getrandom and the sleeps; and
 * through them the resolver, syslog and getpass.  Until a second thread
 * exists each goes straight to the kernel.  Afterwards a pending cancel
 * is acted on at entry, and a call that could block is turned into
 * "try without blocking; if it would block, park in a core wait (io.c);
 * try again":
 *
 *   never waits           read, readv, pread, preadv, write, writev,
 *       pwrite, pwritev on a regular file, block device or directory
 *       (src/core/fdkind.c): the plain call, one system call, as stock
 *       musl makes it.  A file write is never cut into pieces.
 *   fd readable/writable  the same calls on any other descriptor:
 *       preadv2/pwritev2 with RWF_NOWAIT, per call.  recv*, send*:
 *       MSG_DONTWAIT, per call.  accept, and any descriptor whose kind
 *       refuses RWF_NOWAIT (FIFOs, ttys, on this kernel): a readiness
 *       check, then the call, inside one no-preempt section.  A blocking
 *       write is completed in pieces (as a blocking write would be).
 *   connect               the socket is non-blocking for the one call that
 *       starts the connection, then waits writable (docs/io.md).
 *   deadlines             nanosleep, clock_nanosleep: the sleep stub.
 *   the program's sets    poll, ppoll, select, pselect, epoll_pwait: check
 *       with a zero timeout, else park on the set with its own timeout.
 *   children              wait4, waitid: WNOHANG, then a pidfd wait (or
 *       polling where no pidfd can say it).
 *   polled                F_SETLKW, msgrcv/msgsnd, tcdrain, getrandom,
 *       a FIFO's writer open: the non-blocking form at growing intervals.
 *   mq_timed*             the message queue descriptor is pollable.
 *
 * O_NONBLOCK is never set on a descriptor the program shares with other
 * processes; a descriptor the program made non-blocking itself gets the
 * kernel's EAGAIN, unchanged.
 *
 * Inside posix_spawn's vfork child musl 1.2.3 makes one call through
 * this entry before exec, close() of its pipe's read end: it goes
 * straight to the kernel (green_vfork_child), because green's close
 * handling wakes waiters and ends in a scheduling point, and a switch
 * there would run another green thread in the child process.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/file.h>
#include <sys/sem.h>
#include "green.h"

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 8
#endif
#define LOCAL_IOV 16

hidden long __green_sys(long, long, long, long, long, long, long, int);
int __clock_nanosleep(clockid_t, int, const struct timespec *, struct timespec *);

long (__syscall_cp)(syscall_arg_t nr, syscall_arg_t u, syscall_arg_t v, syscall_arg_t w,
                    syscall_arg_t x, syscall_arg_t y, syscall_arg_t z)
{
	if (!green_active() || green_vfork_child()) return __syscall(nr, u, v, w, x, y, z);
	__green_cancel_point();
	return __green_sys(nr, u, v, w, x, y, z, 1);
}

/* ---- waiting */

/* A core wait ended: 0 to try again, or the -errno the call returns. */
static long waited(int r, int cp)
{
	if (r == ECANCELED) {
		__green_cancel_point();
		return 0;
	}
	if (r == EINTR) return __green_intr_restart() ? 0 : -EINTR;
	return -r;
}

/* The core wait, marked a cancellation point when the call is one. */
static int fd_wait(int fd, int ev, uint64_t deadline, enum gwait kind, int cp)
{
	int r;
	if (cp) __green_cur->canceling = 1;
	r = __green_fd_wait(fd, ev, deadline, kind);
	if (cp) __green_cur->canceling = 0;
	return r;
}

static long park_fd(int fd, int ev, uint64_t deadline, enum gwait kind, int cp)
{
	return waited(fd_wait(fd, ev, deadline, kind, cp), cp);
}

static long park_retry(const void *obj, unsigned *step, uint64_t deadline, enum gwait kind, int cp)
{
	int r;
	if (cp) __green_cur->canceling = 1;
	r = __green_retry_wait(kind, obj, step, deadline);
	if (cp) __green_cur->canceling = 0;
	return waited(r, cp);
}

static int fd_nonblocking(int fd)
{
	long fl = __syscall(SYS_fcntl, fd, F_GETFL);
	return fl >= 0 && (fl & O_NONBLOCK);
}

static int fd_ready(int fd, int ev)
{
	struct pollfd p = { fd, ev == GREEN_IN ? POLLIN : POLLOUT, 0 };
	long r;
	/* an error is not readiness: the plain call that follows would block
	 * the process.  Even with a zero timeout poll fails with EINTR when
	 * a signal (a time-slice tick) is pending and no descriptor is
	 * ready: ask again */
	while ((r = __syscall(SYS_poll, &p, 1, 0)) == -EINTR) ;
	return r > 0;
}

/* ---- descriptor I/O: one call described so it can be retried */

enum { BY_IOV, BY_FLAGS, BY_READY };

struct io {
	long nr, a[6];
	int fd, ev, how;
	int flag_arg;          /* BY_FLAGS: which argument takes MSG_DONTWAIT */
	struct iovec *iov;     /* BY_IOV: the buffers (a private copy for writes) */
	int cnt;
	off_t off;             /* BY_IOV: -1 for the file position */
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
		if (fd_ready(c->fd, c->ev)) r = try_plain_small(c);
		else if (fd_nonblocking(c->fd)) r = -EAGAIN;
		else *park = 1;
		GREEN_LEAVE();
		return r;
	}
	if (r != -EAGAIN) return r;
	if (c->how == BY_FLAGS && (c->a[c->flag_arg] & MSG_DONTWAIT)) return r;
	if (fd_nonblocking(c->fd)) return r;
	*park = 1;
	return r;
}

/* A write went part of the way: move on; 0 when nothing is left. */
static int advance(struct io *c, long n)
{
	if (c->how == BY_FLAGS) {
		if (c->nr != SYS_sendto) return 0;
		c->a[1] += n;
		c->a[2] -= n;
		return c->a[2] > 0;
	}
	if (c->off >= 0) c->off += n;
	while (c->cnt && (size_t)n >= c->iov->iov_len) {
		n -= c->iov->iov_len;
		c->iov++;
		c->cnt--;
	}
	if (c->cnt) {
		c->iov->iov_base = (char *)c->iov->iov_base + n;
		c->iov->iov_len -= n;
	}
	while (c->cnt && !c->iov->iov_len) c->iov++, c->cnt--;
	return c->cnt != 0;
}

static long do_io(struct io *c, int cp)
{
	long r, done = 0;
	int park;

	for (;;) {
		r = attempt(c, &park);
		if (park) {
			if (!(r = park_fd(c->fd, c->ev, GREEN_NO_DEADLINE, GW_FD, cp))) continue;
			return done ? done : r;
		}
		if (r <= 0) return done ? done : r;
		done += r;
		if (c->ev == GREEN_IN || !advance(c, r)) return done;
	}
}

static long io_iov(int fd, int ev, const struct iovec *iov, int cnt, off_t off, int cp)
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
	r = do_io(&c, cp);
	if (copy != local && copy != iov) free(copy);
	return r;
}

static long io_buf(int fd, int ev, void *buf, size_t len, off_t off, int cp)
{
	struct iovec iov = { buf, len };
	return io_iov(fd, ev, &iov, 1, off, cp);
}

static long io_call(long nr, const long *a, int ev, int how, int flag_arg, int cp)
{
	struct io c = { .nr = nr, .fd = a[0], .ev = ev, .how = how, .flag_arg = flag_arg };
	memcpy(c.a, a, sizeof c.a);
	return do_io(&c, cp);
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

static long do_connect(int fd, long addr, long len, int cp)
{
	long fl = __syscall(SYS_fcntl, fd, F_GETFL), r;
	unsigned step = 0;
	int err;
	socklen_t sl = sizeof err;

	if (fl < 0 || (fl & O_NONBLOCK)) return __syscall(SYS_connect, fd, addr, len);
	r = connect_start(fd, addr, len, fl);
	while (r == -EAGAIN) {   /* a local listener's backlog is full */
		if ((r = park_retry((void *)(long)fd, &step, GREEN_NO_DEADLINE, GW_RETRY, cp))) return r;
		r = connect_start(fd, addr, len, fl);
	}
	if (r != -EINPROGRESS) return r;
	do {
		if ((r = park_fd(fd, GREEN_OUT, GREEN_NO_DEADLINE, GW_FD, cp))) return r;
	} while (!fd_ready(fd, GREEN_OUT));
	r = __syscall(SYS_getsockopt, fd, SOL_SOCKET, SO_ERROR, &err, &sl);
	return r < 0 ? r : -err;
}

/* ---- the program's own sets: zero-timeout checks around a set wait */

static uint64_t ms_deadline(long ms)
{
	if (ms < 0) return GREEN_NO_DEADLINE;
	return __green_now() + (uint64_t)ms * 1000000u;
}

static uint64_t ts_deadline(const struct timespec *ts)
{
	return ts ? __green_deadline_rel(ts) : GREEN_NO_DEADLINE;
}

/* A set wait (or a timed descriptor wait) ended: 0 to check again,
 * 1 when the timeout passed (one last check), else -errno.  poll and
 * select are never restarted after a handler, as on Linux. */
static long set_waited(int r, int cp)
{
	if (r == ETIMEDOUT) return 1;
	if (r == EINTR) return -EINTR;
	return waited(r, cp);
}

static long set_park(const struct pollfd *p, unsigned long n, uint64_t dl, int cp)
{
	int r;
	if (cp) __green_cur->canceling = 1;
	r = __green_fds_wait(p, n, dl);
	if (cp) __green_cur->canceling = 0;
	return set_waited(r, cp);
}

/*
 * The zero-timeout probe of a set call.  The kernel never restarts
 * ppoll, pselect6 or epoll_pwait after a handler, so a time-slice tick
 * landing in the probe makes it fail with EINTR although the program
 * caught nothing.  Such a probe is simply asked again (it cannot block);
 * a signal of the program's own that arrives while the caller waits ends
 * the wait with EINTR as usual (set_waited).
 */
#define probe(call) ({ long r_; do r_ = (call); while (r_ == -EINTR); r_; })

static long do_poll(struct pollfd *p, unsigned long n, uint64_t dl, long mask, long msize, int cp)
{
	long r;

	for (;;) {
		/* writable: ppoll and pselect6 write the time left back (the
		 * kernel ignores a read-only one; qemu-user fails with EFAULT) */
		struct timespec zero = { 0 };
		r = probe(__syscall(SYS_ppoll, p, n, &zero, mask, msize));
		if (r || __green_now() >= dl) return r;
		if ((r = set_park(p, n, dl, cp)) < 0) return r;
		if (r) dl = 0;
	}
}

#define LONGBITS (8 * sizeof(long))

static int bit(const unsigned long *s, int fd)
{
	return s && (s[fd / LONGBITS] >> fd % LONGBITS & 1);
}

/* the select sets as a struct pollfd array (heap) */
static struct pollfd *sets_to_poll(int n, unsigned long *const s[3], unsigned long *np)
{
	struct pollfd *p = malloc((n ? n : 1) * sizeof *p);
	unsigned long k = 0;

	if (!p) return 0;
	for (int fd = 0; fd < n; fd++) {
		short ev = (bit(s[0], fd) ? POLLIN : 0) | (bit(s[1], fd) ? POLLOUT : 0) |
		           (bit(s[2], fd) ? POLLPRI : 0);
		if (ev) p[k++] = (struct pollfd){ fd, ev, 0 };
	}
	*np = k;
	return p;
}

static long select_park(int n, unsigned long *const saved[3], uint64_t dl, int cp)
{
	unsigned long k;
	struct pollfd *p = sets_to_poll(n, saved, &k);
	long r;

	if (!p) return -ENOMEM;
	r = set_park(p, k, dl, cp);
	free(p);
	return r;
}

static long do_select(int n, long *sets[3], uint64_t dl, long sigdata, int cp)
{
	size_t words = n > 0 ? (n + LONGBITS - 1) / LONGBITS : 0, bytes = words * sizeof(long);
	unsigned long *copy = 0, *saved[3] = { 0 };
	long r;

	if (n < 0) return -EINVAL;
	if (bytes && !(copy = malloc(3 * bytes))) return -ENOMEM;
	for (int i = 0; i < 3; i++)
		if (sets[i] && bytes) memcpy(saved[i] = copy + i * words, sets[i], bytes);
	for (;;) {
		struct timespec zero = { 0 };   /* writable, as in do_poll */
		r = probe(__syscall(SYS_pselect6, n, sets[0], sets[1], sets[2], &zero, sigdata));
		if (r || __green_now() >= dl) break;
		if ((r = select_park(n, saved, dl, cp)) < 0) break;
		if (r) dl = 0;
		for (int i = 0; i < 3; i++)
			if (saved[i]) memcpy(sets[i], saved[i], bytes);
	}
	free(copy);
	return r;
}

static long do_epoll(const long *a, int cp)
{
	uint64_t dl = ms_deadline(a[3]);
	long r;
	int w;

	for (;;) {
		r = probe(__syscall(SYS_epoll_pwait, a[0], a[1], a[2], 0, a[4], a[5]));
		if (r || __green_now() >= dl) return r;
		w = fd_wait(a[0], GREEN_IN, dl, GW_FD, cp);
		if ((r = set_waited(w, cp)) < 0) return r;
		if (r) dl = 0;
	}
}

/* ---- children */

static long child_park(long pid, long opt, unsigned *step, int cp)
{
	long fd = -1;
	int w;

	static int no_pidfd;   /* the kernel (or valgrind) lacks pidfd_open */

	if (pid > 0 && !(opt & (WUNTRACED | WCONTINUED)) && !no_pidfd)
		fd = __syscall(SYS_pidfd_open, pid, 0);
	if (fd == -ENOSYS) no_pidfd = 1;
	if (fd < 0) return park_retry((void *)pid, step, GREEN_NO_DEADLINE, GW_CHILD, cp);
	w = fd_wait(fd, GREEN_IN, GREEN_NO_DEADLINE, GW_CHILD, cp);
	__syscall(SYS_close, fd);
	__green_fd_forget(fd, fd);   /* the epoll backend's registration too */
	return waited(w, cp);
}

static long do_wait4(long pid, long st, long opt, long ru, int cp)
{
	unsigned step = 0;
	long r;

	if (opt & WNOHANG) return __syscall(SYS_wait4, pid, st, opt, ru);
	for (;;) {
		if ((r = __syscall(SYS_wait4, pid, st, opt | WNOHANG, ru))) return r;
		if ((r = child_park(pid, opt, &step, cp))) return r;
	}
}

static long do_waitid(long type, long id, siginfo_t *si, long opt, long ru, int cp)
{
	unsigned step = 0;
	long r;

	if ((opt & WNOHANG) || !si) return __syscall(SYS_waitid, type, id, si, opt, ru);
	for (;;) {
		si->si_pid = 0;
		r = __syscall(SYS_waitid, type, id, si, opt | WNOHANG, ru);
		if (r || si->si_pid) return r;
		if ((r = child_park(type == P_PID ? id : -1, opt, &step, cp))) return r;
	}
}

/* ---- FIFOs: open waits for the other end */

static long fifo_unblock(int fd)
{
	long fl = __syscall(SYS_fcntl, fd, F_GETFL);
	if (fl >= 0) __syscall(SYS_fcntl, fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

/* A reader's open returns once a writer has come: data or its hang-up. */
static long fifo_reader(int fd, int cp)
{
	int w;
	while (!fd_ready(fd, GREEN_IN)) {
		w = fd_wait(fd, GREEN_IN, GREEN_NO_DEADLINE, GW_FD, cp);
		if (!w) continue;
		if (w == EINTR && __green_intr_restart()) continue;
		__syscall(SYS_close, fd);
		__green_fd_forget(fd, fd);
		if (w == ECANCELED) __green_cancel_point();
		return -(w == ECANCELED ? EINTR : w);
	}
	return fifo_unblock(fd);
}

static long do_open(long nr, long dirfd, long path, long flags, long mode, int cp)
{
	struct stat st;
	int acc = flags & O_ACCMODE;
	unsigned step = 0;
	long fd, r;

	if ((flags & (O_NONBLOCK | O_PATH)) || acc == O_RDWR ||
	    fstatat(dirfd, (const char *)path, &st, 0) || !S_ISFIFO(st.st_mode))
		return nr == SYS_open ? __syscall(nr, path, flags, mode)
		                      : __syscall(nr, dirfd, path, flags, mode);
	while ((fd = __syscall(SYS_openat, dirfd, path, flags | O_NONBLOCK, mode)) == -ENXIO)
		if ((r = park_retry((void *)path, &step, GREEN_NO_DEADLINE, GW_RETRY, cp))) return r;
	if (fd < 0) return fd;
	return acc == O_RDONLY ? fifo_reader(fd, cp) : fifo_unblock(fd);
}

/* ---- polled: call the non-blocking form until it no longer would block */

static long polled(long nr, long *a, int arg, long nb, long busy1, long busy2, int cp)
{
	unsigned step = 0;
	long r, want = a[arg];

	a[arg] = nb;
	for (;;) {
		r = __syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		if ((r != busy1 && r != busy2) || want == nb) return r;
		if ((r = park_retry(0, &step, GREEN_NO_DEADLINE, GW_RETRY, cp))) return r;
	}
}

static long do_tcdrain(int fd, int cp)
{
	unsigned step = 0;
	int n;
	long r;

	while (!__syscall(SYS_ioctl, fd, TIOCOUTQ, &n) && n > 0)
		if ((r = park_retry(0, &step, GREEN_NO_DEADLINE, GW_RETRY, cp))) return r;
	return __syscall(SYS_ioctl, fd, TCSBRK, 1);
}

/* 32-bit CPUs whose time_t outgrew long: musl passes long[2] to the
 * original calls and its own struct timespec to the *_time64 ones. */
static const struct timespec *legacy_ts(long p, struct timespec *buf)
{
	const long *l = (const long *)p;
	if (sizeof(time_t) == sizeof(long) || !l) return (const void *)p;
	buf->tv_sec = l[0];
	buf->tv_nsec = l[1];
	return buf;
}

/* mq_timedsend/receive: a deadline in the past never waits; the queue
 * descriptor is pollable. */
static long do_mq(long nr, const long *a, int ev, int legacy, int cp)
{
	static const struct timespec past;
	struct timespec tb;
	const struct timespec *ts = legacy ? legacy_ts(a[4], &tb) : (const void *)a[4];
	uint64_t dl = GREEN_NO_DEADLINE;
	int err = 0, w;
	long r;

	if (fd_nonblocking(a[0])) return __syscall(nr, a[0], a[1], a[2], a[3], a[4]);
	if (ts) dl = __green_deadline(CLOCK_REALTIME, ts, &err);
	for (;;) {
		r = __syscall(nr, a[0], a[1], a[2], a[3], &past);
		if (r != -ETIMEDOUT) return r;
		if (err) return -err;
		if (__green_now() >= dl) return r;
		w = fd_wait(a[0], ev, dl, GW_FD, cp);
		if (w == ETIMEDOUT) continue;
		if ((r = waited(w, cp))) return r;
	}
}

#if defined(SYS_semop) || defined(SYS_semtimedop)
/* System V semaphores: every operation IPC_NOWAIT, on a copy.  (CPUs
 * that reach them only through SYS_ipc, m68k, block the process.) */
static long do_semop(int id, const struct sembuf *ops, size_t n, const struct timespec *ts, int cp)
{
	struct sembuf local[16], *c = n <= 16 ? local : malloc(n * sizeof *c);
	uint64_t dl = ts_deadline(ts);
	unsigned step = 0;
	int wait = 0;
	long r;

	if (!c) return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		c[i] = ops[i];
		wait |= !(c[i].sem_flg & IPC_NOWAIT);
		c[i].sem_flg |= IPC_NOWAIT;
	}
	for (;;) {
#ifdef SYS_semop
		r = __syscall(SYS_semop, id, c, n);
#else
		r = __syscall(SYS_semtimedop, id, c, n, 0);
#endif
		if (r != -EAGAIN || !wait) break;
		if (__green_now() >= dl) break;
		if ((r = park_retry(0, &step, dl, GW_RETRY, cp))) {
			if (r == -ETIMEDOUT) r = -EAGAIN;
			break;
		}
	}
	if (c != local) free(c);
	return r;
}
#endif


/* ---- the dispatch */

/* The reads and writes that may find a descriptor that never waits. */
static int file_io(long nr)
{
	switch (nr) {
	case SYS_read: case SYS_readv: case SYS_preadv:
	case SYS_write: case SYS_writev: case SYS_pwritev:
#ifdef SYS_pread64
	case SYS_pread64:
#endif
#ifdef SYS_pwrite64
	case SYS_pwrite64:
#endif
		return 1;
	}
	return 0;
}

hidden long __green_sys(long nr, long u, long v, long w, long x, long y, long z, int cp)
{
	long a[6] = { u, v, w, x, y, z };
	struct timespec tb;

	/* a regular file, block device or directory: stock musl's one call */
	if (file_io(nr) && __green_fd_never_waits(u)) return __syscall(nr, u, v, w, x, y, z);
	switch (nr) {
	case SYS_read: return io_buf(u, GREEN_IN, (void *)v, w, -1, cp);
#ifdef SYS_pread64
	case SYS_pread64: return io_buf(u, GREEN_IN, (void *)v, w, x, cp);
#endif
	case SYS_readv: return io_iov(u, GREEN_IN, (void *)v, w, -1, cp);
	case SYS_preadv: return io_iov(u, GREEN_IN, (void *)v, w, x, cp);
	case SYS_write: return io_buf(u, GREEN_OUT, (void *)v, w, -1, cp);
#ifdef SYS_pwrite64
	case SYS_pwrite64: return io_buf(u, GREEN_OUT, (void *)v, w, x, cp);
#endif
	case SYS_writev: return io_iov(u, GREEN_OUT, (void *)v, w, -1, cp);
	case SYS_pwritev: return io_iov(u, GREEN_OUT, (void *)v, w, x, cp);
	case SYS_recvfrom: return io_call(nr, a, GREEN_IN, BY_FLAGS, 3, cp);
	case SYS_recvmsg: return io_call(nr, a, GREEN_IN, BY_FLAGS, 2, cp);
	case SYS_recvmmsg: return io_call(nr, a, GREEN_IN, BY_FLAGS, 3, cp);
	case SYS_sendto: return io_call(nr, a, GREEN_OUT, BY_FLAGS, 3, cp);
	case SYS_sendmsg: return io_call(nr, a, GREEN_OUT, BY_FLAGS, 2, cp);
	case SYS_sendmmsg: return io_call(nr, a, GREEN_OUT, BY_FLAGS, 3, cp);
#if !defined(SYS_accept) || SYS_accept != SYS_accept4
	case SYS_accept:
#endif
	case SYS_accept4: return io_call(nr, a, GREEN_IN, BY_READY, 0, cp);
	case SYS_connect: return do_connect(u, v, w, cp);
	case SYS_nanosleep: return -__clock_nanosleep(CLOCK_REALTIME, 0, (void *)u, (void *)v);
	case SYS_clock_nanosleep: return -__clock_nanosleep(u, v, (void *)w, (void *)x);
#ifdef SYS_poll
	case SYS_poll: return do_poll((void *)u, v, ms_deadline(w), 0, _NSIG / 8, cp);
#endif
	case SYS_ppoll: return do_poll((void *)u, v, ts_deadline(legacy_ts(w, &tb)), x, y, cp);
#if defined(SYS_ppoll_time64) && SYS_ppoll_time64 != SYS_ppoll
	case SYS_ppoll_time64: return do_poll((void *)u, v, ts_deadline((void *)w), x, y, cp);
	case SYS_pselect6_time64: return do_select(u, (long *[3]){ (long *)v, (long *)w, (long *)x },
	                                           ts_deadline((void *)y), z, cp);
	case SYS_recvmmsg_time64: return io_call(nr, a, GREEN_IN, BY_FLAGS, 3, cp);
	case SYS_mq_timedsend_time64: return do_mq(nr, a, GREEN_OUT, 0, cp);
	case SYS_mq_timedreceive_time64: return do_mq(nr, a, GREEN_IN, 0, cp);
#endif
#ifdef SYS_select
	case SYS_select: {
		const long *tv = (const long *)y;
		struct timespec ts;
		if (tv) ts = (struct timespec){ tv[0], tv[1] * 1000 };
		return do_select(u, (long *[3]){ (long *)v, (long *)w, (long *)x },
		                 ts_deadline(tv ? &ts : 0), 0, cp);
	}
#endif
	case SYS_pselect6: return do_select(u, (long *[3]){ (long *)v, (long *)w, (long *)x },
	                                    ts_deadline(legacy_ts(y, &tb)), z, cp);
	case SYS_epoll_pwait: return do_epoll(a, cp);
#ifdef SYS_epoll_wait
	case SYS_epoll_wait: a[4] = 0; return do_epoll(a, cp);
#endif
	case SYS_wait4: return do_wait4(u, v, w, x, cp);
	case SYS_waitid: return do_waitid(u, v, (void *)w, x, y, cp);
#ifdef SYS_open
	case SYS_open: return do_open(nr, AT_FDCWD, u, v, w, cp);
#endif
	case SYS_openat: return do_open(nr, u, v, w, x, cp);
	case SYS_fcntl:
		if (v == F_SETLKW) return polled(nr, a, 1, F_SETLK, -EAGAIN, -EACCES, cp);
		if (v == F_OFD_SETLKW) return polled(nr, a, 1, F_OFD_SETLK, -EAGAIN, -EACCES, cp);
		break;
#ifdef SYS_msgrcv
	case SYS_msgrcv: return polled(nr, a, 4, y | IPC_NOWAIT, -ENOMSG, -ENOMSG, cp);
#endif
#ifdef SYS_msgsnd
	case SYS_msgsnd: return polled(nr, a, 3, x | IPC_NOWAIT, -EAGAIN, -EAGAIN, cp);
#endif
	case SYS_mq_timedsend: return do_mq(nr, a, GREEN_OUT, 1, cp);
	case SYS_mq_timedreceive: return do_mq(nr, a, GREEN_IN, 1, cp);
	case SYS_ioctl:
		if (v == TCSBRK && w == 1) return do_tcdrain(u, cp);
		break;
	case SYS_getrandom: return polled(nr, a, 2, w | GRND_NONBLOCK, -EAGAIN, -EAGAIN, cp);
	case SYS_flock:
		if (v & (LOCK_SH | LOCK_EX)) return polled(nr, a, 1, v | LOCK_NB, -EWOULDBLOCK, -EWOULDBLOCK, cp);
		break;
#ifdef SYS_semop
	case SYS_semop: return do_semop(u, (void *)v, w, 0, cp);
#endif
#ifdef SYS_semtimedop
	case SYS_semtimedop: return do_semop(u, (void *)v, w, legacy_ts(x, &tb), cp);
#endif
	case SYS_close: {
		long r;
		__green_fd_closed(u);
		r = __syscall(nr, u);
		__green_fd_forget(u, u);   /* after the close (src/core/fdkind.c) */
		return r;
	}
	}
	return __syscall(nr, u, v, w, x, y, z);
}
