/*
 * polled.c — calls that have a non-blocking form and no
 * descriptor to wait on, retried at growing intervals; and the message
 * queue calls, whose descriptor is pollable (sysio.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include "base/gthread.h"
#include "sched/gsched.h"
#include "fdwait.h"
#include "sysio.h"

/* ---- polled: call the non-blocking form until it no longer would block */

hidden long __sysio_polled(long nr, long *a, int arg, long nb, long busy1, long busy2, int cp)
{
	unsigned step = 0;
	long r, want = a[arg];

	a[arg] = nb;
	for (;;) {
		r = __syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		if ((r != busy1 && r != busy2) || want == nb) return r;
		if ((r = __sysio_waited(__green_retry_wait(GW_RETRY, 0, &step, GREEN_NO_DEADLINE, cp), cp))) return r;
	}
}

hidden long __sysio_tcdrain(int fd, int cp)
{
	unsigned step = 0;
	int n;
	long r;

	while (!__syscall(SYS_ioctl, fd, TIOCOUTQ, &n) && n > 0)
		if ((r = __sysio_waited(__green_retry_wait(GW_RETRY, 0, &step, GREEN_NO_DEADLINE, cp), cp))) return r;
	return __syscall(SYS_ioctl, fd, TCSBRK, 1);
}

/* mq_timedsend/receive: a deadline in the past never waits; the queue
 * descriptor is pollable. */
hidden long __sysio_mq(long nr, const long *a, int ev, int legacy, int cp)
{
	static const struct timespec past;
	struct timespec tb;
	const struct timespec *ts = legacy ? legacy_ts(a[4], &tb) : (const void *)a[4];
	uint64_t dl = GREEN_NO_DEADLINE;
	int err = 0, w;
	long r;

	if (__green_fd_nonblocking(a[0])) return __syscall(nr, a[0], a[1], a[2], a[3], a[4]);
	if (ts) dl = __green_deadline(CLOCK_REALTIME, ts, &err);
	for (;;) {
		r = __syscall(nr, a[0], a[1], a[2], a[3], &past);
		if (r != -ETIMEDOUT) return r;
		if (err) return -err;
		if (__green_now() >= dl) return r;
		w = __green_fd_wait(a[0], ev, dl, GW_FD, cp);
		if (w == ETIMEDOUT) continue;
		if ((r = __sysio_waited(w, cp))) return r;
	}
}

#if defined(SYS_semop) || defined(SYS_semtimedop)
/* System V semaphores: every operation IPC_NOWAIT, on a copy.  (CPUs
 * that reach them only through SYS_ipc, m68k, block the process.) */
hidden long __sysio_semop(int id, const struct sembuf *ops, size_t n, const struct timespec *ts, int cp)
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
		if ((r = __sysio_waited(__green_retry_wait(GW_RETRY, 0, &step, dl, cp), cp))) {
			if (r == -ETIMEDOUT) r = -EAGAIN;
			break;
		}
	}
	if (c != local) free(c);
	return r;
}
#endif
