/*
 * sets.c — the program's own descriptor sets: poll, ppoll,
 * select, pselect, epoll_wait (sysio.h).
 */
#include <errno.h>
#include <poll.h>
#include <sys/select.h>
#include <signal.h>
#include <string.h>
#include <stdlib.h>
#include "base/gthread.h"
#include "sched/gsched.h"
#include "fastio.h"   /* __sysio_epoll_empty, __sysio_poll_empty */
#include "fdwait.h"
#include "sysio.h"

/* ---- the program's own sets: zero-timeout checks around a set wait */

/* A set wait (or a timed descriptor wait) ended: 0 to check again,
 * 1 when the timeout passed (one last check), else -errno.  poll and
 * select are never restarted after a handler, as on Linux. */
static long set_waited(int r, int cp)
{
	if (r == ETIMEDOUT) return 1;
	if (r == EINTR) return -EINTR;
	return __sysio_waited(r, cp);
}

static long set_park(const struct pollfd *p, unsigned long n, uint64_t dl, int cp)
{
	return set_waited(__green_fds_wait(p, n, dl, cp), cp);
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

/* poll and ppoll; empty: the program's own probe found nothing
 * (src/members/poll_wait.c, which calls __sysio_poll_empty) */
static long poll_from(struct pollfd *p, unsigned long n, uint64_t dl, long mask, long msize, int empty, int cp)
{
	long r = 0;

	for (;; empty = 0) {
		/* writable: ppoll and pselect6 write the time left back (the
		 * kernel ignores a read-only one; qemu-user fails with EFAULT) */
		struct timespec zero = { 0 };
		if (!empty) r = probe(__syscall(SYS_ppoll, p, n, &zero, mask, msize));
		if (r || __green_now() >= dl) return r;
		if ((r = set_park(p, n, dl, cp)) < 0) return r;
		if (r) dl = 0;
	}
}

hidden long __sysio_poll(struct pollfd *p, unsigned long n, uint64_t dl, long mask, long msize, int cp)
{
	return poll_from(p, n, dl, mask, msize, 0, cp);
}

/* poll's, whose probe found nothing: ms its timeout, no mask */
hidden long __sysio_poll_empty(struct pollfd *p, unsigned long n, int ms, int cp)
{
	return poll_from(p, n, ms_deadline(ms), 0, _NSIG / 8, 1, cp);
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

/* The words of the three sets kept on the stack (FD_SETSIZE's worth);
 * more are kept on the heap */
#define SELECT_LOCAL_WORDS (FD_SETSIZE / LONGBITS)

/* select and pselect; empty: the program's own probe found nothing
 * (src/members/select.c, which calls __sysio_select_empty) */
static long select_from(int n, long *sets[3], uint64_t dl, long sigdata, int empty, int cp)
{
	size_t words = n > 0 ? (n + LONGBITS - 1) / LONGBITS : 0, bytes = words * sizeof(long);
	unsigned long local[3 * SELECT_LOCAL_WORDS], *copy = local, *saved[3] = { 0 };
	long r;

	/* the program's sets, kept for the probes after a wait (a probe
	 * overwrites them): on the stack unless above FD_SETSIZE (a malloc
	 * and free made most of a select that found a descriptor ready,
	 * 2,400 instructions) */
	if (n < 0) return -EINVAL;
	if (words > SELECT_LOCAL_WORDS && !(copy = malloc(3 * bytes))) return -ENOMEM;
	for (int i = 0; i < 3; i++)
		if (sets[i] && bytes) memcpy(saved[i] = copy + i * words, sets[i], bytes);
	for (r = 0;; empty = 0) {
		struct timespec zero = { 0 };   /* writable, as in poll_from */
		if (!empty) r = probe(__syscall(SYS_pselect6, n, sets[0], sets[1], sets[2], &zero, sigdata));
		if (r || __green_now() >= dl) break;
		if ((r = select_park(n, saved, dl, cp)) < 0) break;
		if (r) dl = 0;
		for (int i = 0; i < 3; i++)
			if (saved[i]) memcpy(sets[i], saved[i], bytes);
	}
	if (copy != local) free(copy);
	return r;
}

hidden long __sysio_select(int n, long *sets[3], uint64_t dl, long sigdata, int cp)
{
	return select_from(n, sets, dl, sigdata, 0, cp);
}

/* select's, whose probe found nothing: ts its timeout (0: none), no mask */
hidden long __sysio_select_empty(int n, long *sets[3], const struct timespec *ts, int cp)
{
	return select_from(n, sets, ts_deadline(ts), 0, 1, cp);
}

/* epoll_pwait (a: its six arguments, the timeout in ms in a[3]);
 * empty: the program's own probe found nothing (src/members/epoll_wait.c,
 * which calls __sysio_epoll_empty) */
static long epoll_wait_from(const long *a, int empty, int cp)
{
	uint64_t dl = ms_deadline(a[3]);
	long r = 0;
	int w;

	for (;; empty = 0) {
		if (!empty) r = probe(__syscall(SYS_epoll_pwait, a[0], a[1], a[2], 0, a[4], a[5]));
		if (r || __green_now() >= dl) return r;
		w = __green_fd_wait(a[0], GREEN_IN, dl, GW_FD, cp);
		if ((r = set_waited(w, cp)) < 0) return r;
		if (r) dl = 0;
	}
}

hidden long __sysio_epoll(const long *a, int cp)
{
	return epoll_wait_from(a, 0, cp);
}

hidden long __sysio_epoll_empty(const long *a, int cp)
{
	return epoll_wait_from(a, 1, cp);
}
