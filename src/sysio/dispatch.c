/*
 * dispatch.c — which of musl's blocking calls goes where
 * (sysio.h, docs/io.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include "sched/tick.h"
#include "fdwait.h"
#include "fastio.h"
#include "sysio.h"

int __clock_nanosleep(clockid_t, int, const struct timespec *, struct timespec *);

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

/* read or write of a socket, as recvfrom or sendto with no address: the
 * same call for every kind of socket, whose non-blocking form takes a
 * flag (MSG_DONTWAIT) where preadv2's takes a vector to check (the fast
 * path of fastio.h, which __syscall_cp has in line).  A read of zero
 * bytes keeps the plain path (recvfrom would take a datagram); a write
 * of zero bytes is a sendto, which sends an empty datagram as write
 * does (pwritev2 of nothing sends nothing). */
static long socket_io(long nr, long fd, long buf, long len, int ev, int cp)
{
	long r;
	if (len && (r = green_fast_io(nr, fd, buf, len, cp)) != GREEN_IO_GENERAL) return r;
	return __sysio_io_call(nr == SYS_read ? SYS_recvfrom : SYS_sendto, (long[6]){ fd, buf, len, 0, 0, 0 },
	                       ev, BY_FLAGS, 3, cp);
}

/* nanosleep and clock_nanosleep: a struct timespec each way, or two
 * longs (legacy) on a 32-bit CPU whose time_t outgrew long */
static long sleep_call(clockid_t clk, int flags, long req, long rem, int legacy)
{
	struct timespec in, out;
	long r;

	if (!legacy || sizeof(time_t) == sizeof(long))
		return -__clock_nanosleep(clk, flags, (void *)req, (void *)rem);
	r = -__clock_nanosleep(clk, flags, legacy_ts(req, &in), rem ? &out : 0);
	if (r == -EINTR && rem) {
		((long *)rem)[0] = out.tv_sec;
		((long *)rem)[1] = out.tv_nsec;
	}
	return r;
}

hidden long __green_sys(long nr, long u, long v, long w, long x, long y, long z, int cp)
{
	long a[6] = { u, v, w, x, y, z };
	struct timespec tb;

	/* a regular file, block device or directory: stock musl's one call */
	if (file_io(nr) && __green_fd_never_waits(u)) return __syscall(nr, u, v, w, x, y, z);
	switch (nr) {
	case SYS_read:
		if (w && __green_fd_is_socket(u)) return socket_io(SYS_read, u, v, w, GREEN_IN, cp);
		return __sysio_io_buf(u, GREEN_IN, (void *)v, w, -1, cp);
#ifdef SYS_pread64
	case SYS_pread64: return __sysio_io_buf(u, GREEN_IN, (void *)v, w, x, cp);
#endif
	case SYS_readv: return __sysio_io_iov(u, GREEN_IN, (void *)v, w, -1, cp);
	case SYS_preadv: return __sysio_io_iov(u, GREEN_IN, (void *)v, w, x, cp);
	case SYS_write:
		if (__green_fd_is_socket(u)) return socket_io(SYS_write, u, v, w, GREEN_OUT, cp);
		return __sysio_io_buf(u, GREEN_OUT, (void *)v, w, -1, cp);
#ifdef SYS_pwrite64
	case SYS_pwrite64: return __sysio_io_buf(u, GREEN_OUT, (void *)v, w, x, cp);
#endif
	case SYS_writev: return __sysio_io_iov(u, GREEN_OUT, (void *)v, w, -1, cp);
	case SYS_pwritev: return __sysio_io_iov(u, GREEN_OUT, (void *)v, w, x, cp);
	case SYS_recvfrom:
	case SYS_sendto:
		/* learn the kind, so that the next call on a socket takes the
		 * fast path of recvfrom.c and sendto.c */
		__green_fd_never_waits(u);
		return __sysio_io_call(nr, a, nr == SYS_recvfrom ? GREEN_IN : GREEN_OUT, BY_FLAGS, 3, cp);
	case SYS_recvmsg: return __sysio_io_call(nr, a, GREEN_IN, BY_FLAGS, 2, cp);
	case SYS_recvmmsg: return __sysio_io_call(nr, a, GREEN_IN, BY_FLAGS, 3, cp);
	case SYS_sendmsg: return __sysio_io_call(nr, a, GREEN_OUT, BY_FLAGS, 2, cp);
	case SYS_sendmmsg: return __sysio_io_call(nr, a, GREEN_OUT, BY_FLAGS, 3, cp);
#if !defined(SYS_accept) || SYS_accept != SYS_accept4
	case SYS_accept:
#endif
	case SYS_accept4: {
		long r = __sysio_accept(nr, a, cp);
		if (r >= 0) __green_tick_accepted();   /* the tick's policy for acceptors */
		return r;
	}
	case SYS_connect: return __sysio_connect(u, v, w, cp);
	case SYS_nanosleep: return sleep_call(CLOCK_REALTIME, 0, u, v, 1);
	case SYS_clock_nanosleep: return sleep_call(u, v, w, x, 1);
#if defined(SYS_clock_nanosleep_time64) && SYS_clock_nanosleep_time64 != SYS_clock_nanosleep
	case SYS_clock_nanosleep_time64: return sleep_call(u, v, w, x, 0);
#endif
#ifdef SYS_poll
	case SYS_poll: return __sysio_poll((void *)u, v, ms_deadline(w), 0, _NSIG / 8, cp);
#endif
	case SYS_ppoll: return __sysio_poll((void *)u, v, ts_deadline(legacy_ts(w, &tb)), x, y, cp);
#if defined(SYS_ppoll_time64) && SYS_ppoll_time64 != SYS_ppoll
	case SYS_ppoll_time64: return __sysio_poll((void *)u, v, ts_deadline((void *)w), x, y, cp);
	case SYS_pselect6_time64: return __sysio_select(u, (long *[3]){ (long *)v, (long *)w, (long *)x },
	                                           ts_deadline((void *)y), z, cp);
	case SYS_recvmmsg_time64: return __sysio_io_call(nr, a, GREEN_IN, BY_FLAGS, 3, cp);
	case SYS_mq_timedsend_time64: return __sysio_mq(nr, a, GREEN_OUT, 0, cp);
	case SYS_mq_timedreceive_time64: return __sysio_mq(nr, a, GREEN_IN, 0, cp);
#endif
#ifdef SYS_select
	case SYS_select: {
		const long *tv = (const long *)y;
		struct timespec ts;
		if (tv) ts = (struct timespec){ tv[0], tv[1] * 1000 };
		return __sysio_select(u, (long *[3]){ (long *)v, (long *)w, (long *)x },
		                 ts_deadline(tv ? &ts : 0), 0, cp);
	}
#endif
	case SYS_pselect6: return __sysio_select(u, (long *[3]){ (long *)v, (long *)w, (long *)x },
	                                    ts_deadline(legacy_ts(y, &tb)), z, cp);
	case SYS_epoll_pwait: return __sysio_epoll(a, cp);
#ifdef SYS_epoll_wait
	case SYS_epoll_wait: a[4] = 0; return __sysio_epoll(a, cp);
#endif
#ifdef SYS_epoll_pwait2
	case SYS_epoll_pwait2: {   /* its timeout to the millisecond, rounded up */
		const struct timespec *ts = (const void *)x;
		if (ts && (ts->tv_sec < 0 || (unsigned long)ts->tv_nsec >= 1000000000u)) return -EINVAL;
		a[3] = !ts ? -1 : ts->tv_sec >= 2147483 ? 2147483647 : ts->tv_sec * 1000 + (ts->tv_nsec + 999999) / 1000000;
		return __sysio_epoll(a, cp);
	}
#endif
	case SYS_wait4: return __sysio_wait4(u, v, w, x, cp);
	case SYS_waitid: return __sysio_waitid(u, v, (void *)w, x, y, cp);
#ifdef SYS_open
	case SYS_open: return __sysio_open(nr, AT_FDCWD, u, v, w, cp);
#endif
	case SYS_openat: return __sysio_open(nr, u, v, w, x, cp);
	case SYS_fcntl:
		if (v == F_SETLKW) return __sysio_polled(nr, a, 1, F_SETLK, -EAGAIN, -EACCES, cp);
		if (v == F_OFD_SETLKW) return __sysio_polled(nr, a, 1, F_OFD_SETLK, -EAGAIN, -EACCES, cp);
		break;
#ifdef SYS_msgrcv
	case SYS_msgrcv: return __sysio_polled(nr, a, 4, y | IPC_NOWAIT, -ENOMSG, -ENOMSG, cp);
#endif
#ifdef SYS_msgsnd
	case SYS_msgsnd: return __sysio_polled(nr, a, 3, x | IPC_NOWAIT, -EAGAIN, -EAGAIN, cp);
#endif
	case SYS_mq_timedsend: return __sysio_mq(nr, a, GREEN_OUT, 1, cp);
	case SYS_mq_timedreceive: return __sysio_mq(nr, a, GREEN_IN, 1, cp);
	case SYS_ioctl:
		if (v == TCSBRK && w == 1) return __sysio_tcdrain(u, cp);
		break;
	case SYS_getrandom: return __sysio_polled(nr, a, 2, w | GRND_NONBLOCK, -EAGAIN, -EAGAIN, cp);
	case SYS_flock:
		if (v & (LOCK_SH | LOCK_EX)) return __sysio_polled(nr, a, 1, v | LOCK_NB, -EWOULDBLOCK, -EWOULDBLOCK, cp);
		break;
#ifdef SYS_semop
	case SYS_semop: return __sysio_semop(u, (void *)v, w, 0, cp);
#endif
#ifdef SYS_semtimedop
	case SYS_semtimedop: return __sysio_semop(u, (void *)v, w, legacy_ts(x, &tb), cp);
#endif
#if defined(SYS_semtimedop) && defined(SYS_semtimedop_time64) && SYS_semtimedop_time64 != SYS_semtimedop
	case SYS_semtimedop_time64: return __sysio_semop(u, (void *)v, w, (void *)x, cp);
#endif
	case SYS_close: {
		long r;
		__green_fd_closed(u);
		r = __syscall(nr, u);
		__green_fd_forget(u, u);   /* after the close (fdkind.c) */
		return r;
	}
	}
	return __syscall(nr, u, v, w, x, y, z);
}
