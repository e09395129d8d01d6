/*
 * sysio.h — the blocking-I/O engine: what musl's blocking system calls
 * become once a second thread exists, so that they park only the calling
 * thread (docs/io.md).  Its one entry is __green_sys (dispatch.c), which
 * __syscall_cp and the stubs of green-sys.h call.  The whole I/O path
 * lives in this directory, a file per concern.  The upper half, which
 * knows system calls:
 *
 *   fdio.c      descriptor I/O (read, write, recv*, send*) and connect
 *   listener.c  accept on a queue other processes may share
 *   sets.c      the program's own sets: poll, ppoll, select, pselect, epoll_wait
 *   children.c  wait4, waitid
 *   fifo.c      a FIFO's open, which waits for the other end
 *   polled.c    calls with a non-blocking form and nothing to wait on:
 *               F_SETLKW, msgrcv/msgsnd, tcdrain, getrandom, flock,
 *               mq_timed*, semop
 *   dispatch.c  the table: which call goes where
 *
 * The lower half, which knows threads and descriptors but no system
 * call's number:
 *
 *   io.c        a thread's wait on the kernel (fdwait.h), and what ends it
 *   poll.c      the multiplexer: the idle wait and the tick's check
 *               (idlewait.h), the select and poll backends
 *   epoll.c     the epoll backend
 *   fdkind.c    what is known of each descriptor (fdwait.h)
 *
 * io.h is what the lower half shares, ioq.h its waiters' records (which
 * the diagnostics read); the core includes idlewait.h, fdwait.h or ioq.h
 * for what it uses, never io.h or this file.
 *
 * cp says whether the call is a cancellation point (through __syscall_cp
 * it is; through green-sys.h never).  Every function returns what the
 * kernel would: a result, or -errno.
 */
#ifndef GREEN_SYSIO_H
#define GREEN_SYSIO_H
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <sys/uio.h>
#include "sched/gsched.h"

#define LOCAL_IOV 16

hidden long __green_sys(long, long, long, long, long, long, long, int);

/* io.c, beside the waits themselves (fdwait.h): a wait's end as the
 * call's result (0: try again), and readiness now */
hidden long __sysio_waited(int r, int cp);
hidden int __sysio_fd_ready(int fd, int ev);

/* fdio.c: how a call takes the non-blocking flag */
enum { BY_IOV, BY_FLAGS, BY_READY };
hidden long __sysio_io_iov(int fd, int ev, const struct iovec *iov, int cnt, off_t off, int cp);
hidden long __sysio_io_buf(int fd, int ev, void *buf, size_t len, off_t off, int cp);
hidden long __sysio_io_call(long nr, const long *a, int ev, int how, int flag_arg, int cp);
hidden long __sysio_connect(int fd, long addr, long len, int cp);

/* listener.c: accept, never asleep in the kernel */
hidden long __sysio_accept(long nr, const long *a, int cp);

/* sets.c */
hidden long __sysio_poll(struct pollfd *p, unsigned long n, uint64_t dl, long mask, long msize, int cp);
hidden long __sysio_select(int n, long *sets[3], uint64_t dl, long sigdata, int cp);
hidden long __sysio_epoll(const long *a, int cp);

/* children.c */
hidden long __sysio_wait4(long pid, long st, long opt, long ru, int cp);
hidden long __sysio_waitid(long type, long id, siginfo_t *si, long opt, long ru, int cp);

/* fifo.c */
hidden long __sysio_open(long nr, long dirfd, long path, long flags, long mode, int cp);

/* polled.c */
hidden long __sysio_polled(long nr, long *a, int arg, long nb, long busy1, long busy2, int cp);
hidden long __sysio_tcdrain(int fd, int cp);
hidden long __sysio_mq(long nr, const long *a, int ev, int legacy, int cp);
struct sembuf;
hidden long __sysio_semop(int id, const struct sembuf *ops, size_t n, const struct timespec *ts, int cp);

/* deadlines of the calls' own timeouts */
static inline uint64_t ms_deadline(long ms)
{
	if (ms < 0) return GREEN_NO_DEADLINE;
	return __green_now() + (uint64_t)ms * 1000000u;
}

static inline uint64_t ts_deadline(const struct timespec *ts)
{
	return ts ? __green_deadline_rel(ts) : GREEN_NO_DEADLINE;
}

/* 32-bit CPUs whose time_t outgrew long: musl passes long[2] to the
 * original calls and its own struct timespec to the *_time64 ones. */
static inline const struct timespec *legacy_ts(long p, struct timespec *buf)
{
	const long *l = (const long *)p;
	if (sizeof(time_t) == sizeof(long) || !l) return (const void *)p;
	buf->tv_sec = l[0];
	buf->tv_nsec = l[1];
	return buf;
}
#endif
