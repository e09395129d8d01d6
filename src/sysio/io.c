/*
 * io.c — a thread waits for the kernel: a descriptor, a set of them, a
 * child process, or a condition that can only be polled.
 *
 * The engine (sysio.h) turns a blocking call into "try it without
 * blocking; if it would block, wait here, then try again" (a read that
 * found nothing lately waits first: fdkind.c).  The waits offered, each
 * marked a cancellation point (GREEN_CP_WAIT) when its cp says the call
 * is one:
 *
 *   __green_fd_wait     one descriptor readable/writable/priority data.
 *                       The usual one (no deadline: io.h) waits on no
 *                       queue, its node on the descriptor's list and on
 *                       the list of every linked node; any other joins
 *                       the kernel-wait queue.  The multiplexer (poll.c)
 *                       wakes it when the kernel reports the descriptor
 *                       ready.
 *   __green_fds_wait    the program's own poll()/select() set, with its
 *                       own timeout: the set is copied to the heap for
 *                       the duration of the wait.
 *   __green_retry_wait  (the scheduler's, sched/retry.c) no descriptor
 *                       can announce the event (a record lock, a System V
 *                       message queue, a child without a pidfd).
 *
 * A wake from the multiplexer means "try again", never "it will not
 * block": another thread may have taken the data first, so the engine
 * always retries the non-blocking form.
 *
 * close() and dup2() over a descriptor others wait on wake them with
 * EBADF (__green_fd_closed), as the call would fail on a closed
 * descriptor anyway.  Waits on a set are woken with 0 instead: the retry
 * reports POLLNVAL, as poll() does.
 *
 * Every wait comes with nodes, one per descriptor (in the thread for a
 * single descriptor, in the heap copy of a set), linked onto their
 * descriptors' lists while the thread waits: the epoll backend finds
 * its waiters there (epoll.c), and so does a write to a pipe's or
 * socket pair's other end, whatever the backend (peer.c).
 *
 * A pending cancel is checked inside the no-preempt section, just before
 * parking, when the wait is a cancellation point: a cancel that arrived
 * after the engine's own check is not lost.
 *
 * For the engine besides: how a wait's end becomes the system call's
 * result (__sysio_waited), and whether a descriptor is ready now
 * (__sysio_fd_ready).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE      /* POLLRDHUP */
#endif
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <poll.h>
/* <sys/epoll.h> brings musl's <endian.h>, whose byte-swap helpers GCC's
 * -Wparentheses dislikes (musl's headers are not system headers here) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wparentheses"
#include <sys/epoll.h>
#pragma GCC diagnostic pop
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "fdwait.h"
#include "signal/gsignal.h"
#include "io.h"
#include "ioq.h"
#include "sysio.h"

hidden struct gq __green_io_q;
hidden size_t __green_io_nfds;
hidden struct green_io_node *__green_io_linked;

/* Park on the kernel-wait queue with nodes filled in for the epoll
 * backend (epoll.c), which may answer at once: EAGAIN (always ready:
 * retry), EBADF. */
static int io_park(enum gwait kind, const void *obj, struct green_io_node *nodes, size_t nfds,
                   uint64_t deadline)
{
	struct green_thread *self = __green_cur;
	int r;

	GREEN_ENTER();
	if (green_cancel_due(self)) {
		r = ECANCELED;
	} else if ((r = __green_io_arm(nodes, nfds))) {
		if (r == EAGAIN || (r == EBADF && kind == GW_POLL)) r = 0;
	} else {
		__green_io_nfds += nfds;
		r = __green_wait(&__green_io_q, kind, obj, deadline);
		__green_io_nfds -= nfds;
		__green_epoll_unpark(nodes, nfds);
	}
	GREEN_LEAVE();
	return r;
}

hidden void __green_io_relink(struct green_io_node *n, int fd, struct green_fd *e)
{
	if (n->linked) green_epoll_unlink(n, &__green_fds[n->fd]);
	n->t = __green_cur;
	n->fd = fd;
	green_epoll_link(n, e);
	green_fd_used(fd);
}

/* poll's bits as epoll's (the same values on x86_64, not everywhere) */
static unsigned to_epoll(unsigned p)
{
	static const struct { unsigned short p; unsigned e; } map[] = {
		{ POLLIN, EPOLLIN }, { POLLPRI, EPOLLPRI }, { POLLOUT, EPOLLOUT },
		{ POLLRDNORM, EPOLLRDNORM }, { POLLRDBAND, EPOLLRDBAND },
		{ POLLWRNORM, EPOLLWRNORM }, { POLLWRBAND, EPOLLWRBAND },
		{ POLLRDHUP, EPOLLRDHUP },
	};
	unsigned e = 0;
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (p & map[i].p) e |= map[i].e;
	return e;
}

/* a node for one descriptor and its events as epoll's bits, in a wait */
static void node(struct green_io_node *n, int fd, unsigned events)
{
	n->t = __green_cur;
	n->fd = fd;
	n->events = events;
	n->linked = 0;
	n->waiting = green_node_waiting(events);
}

/* the usual wait in its own section: a cancel already due ends it */
static inline int usual_wait_section(struct green_thread *self, int fd, unsigned ev,
                                     struct green_fd *e, const void *key, enum gwait kind)
{
	int r;
	GREEN_ENTER();
	r = green_cancel_due(self) ? ECANCELED : green_usual_wait(self, fd, ev, e, key, kind);
	GREEN_LEAVE();
	return r;
}

hidden int __green_fd_wait(int fd, int events, uint64_t deadline, enum gwait kind, int cp)
{
	struct green_thread *self = __green_cur;
	struct green_io_node *n = &self->io_node;
	struct green_fd *e = green_fd(fd);
	const void *key = io_key(fd, events);
	unsigned ev = (events & GREEN_IN ? EPOLLIN : 0) | (events & GREEN_OUT ? EPOLLOUT : 0) |
	              (events & GREEN_PRI ? EPOLLPRI : 0);
	int r = -1;

	if (fd < 0) return EBADF;
	if (e && deadline == GREEN_NO_DEADLINE) {
		r = GREEN_CP_WAIT_AS(self, cp, usual_wait_section(self, fd, ev, e, key, kind));
		if (r >= 0) return r;
	}
	/* any other: the node off the list it stayed on after a usual wait,
	 * then made for this one (io_park links it again where it must) */
	GREEN_ENTER();
	__green_epoll_unpark(n, 1);
	node(n, fd, ev);
	GREEN_LEAVE();
	return GREEN_CP_WAIT_AS(self, cp, io_park(kind, key, n, 1, deadline));
}

hidden int __green_fds_wait(const struct pollfd *fds, unsigned long n, uint64_t deadline, int cp)
{
	struct io_set *s = malloc(sizeof *s + n * (sizeof *fds + sizeof *s->nodes) + sizeof(void *));
	int r;

	if (!s) return ENOMEM;
	s->n = n;
	/* the nodes after the entries: pollfd's alignment is int's, a
	 * node's a pointer's, so round the offset up */
	s->nodes = (void *)((char *)s + ((sizeof *s + n * sizeof *fds + sizeof(void *) - 1) &
	                                 -sizeof(void *)));
	if (n) memcpy(s->fds, fds, n * sizeof *fds);
	for (unsigned long i = 0; i < n; i++) node(&s->nodes[i], fds[i].fd, to_epoll(fds[i].events));
	r = GREEN_CP_WAIT(cp, io_park(GW_POLL, s, s->nodes, n, deadline));
	free(s);
	return r;
}

static int set_has(const struct io_set *s, int fd)
{
	for (unsigned long i = 0; i < s->n; i++)
		if (s->fds[i].fd == fd) return 1;
	return 0;
}

hidden void __green_fd_closed(int fd)
{
	struct green_thread *t, *next;
	struct green_fd *e;

	GREEN_ENTER();
	/* with the epoll backend, the descriptor's own list (epoll.c) */
	if (__green_epoll_closing(fd)) {
		GREEN_LEAVE();
		return;
	}
	for (t = __green_io_q.head; t; t = next) {
		next = t->q_next;
		if (t->wait == GW_POLL) {
			if (set_has(t->wait_obj, fd)) __green_wake(t, 0);
		} else if (io_key_fd(t->wait_obj) == fd) {
			__green_wake(t, EBADF);
		}
	}
	/* the usual waits, on no queue: on the descriptor's list */
	if ((e = green_fd(fd)) && e->lgen == __green_epoll_lists)
		for (struct green_io_node *n = e->head; n; n = n->next)
			if (n == &n->t->io_node && green_in_usual_wait(n->t)) __green_wake(n->t, EBADF);
	GREEN_LEAVE();
}

/* After fork the child keeps only its caller, which is running: nobody
 * waits on the kernel any more. */
hidden void __green_io_reset(void)
{
	__green_io_q.head = __green_io_q.tail = 0;
	__green_io_nfds = 0;
	__green_io_linked = 0;   /* the nodes of threads gone with them */
	__green_epoll_reset();
}

/* ---- for the engine's files (sysio.h) */

/* A wait ended: 0 to try the call again, or the -errno it returns. */
hidden long __sysio_waited(int r, int cp)
{
	if (r == ECANCELED) {
		__green_cancel_point();
		return 0;
	}
	if (r == EINTR) return __green_intr_restart() ? 0 : -EINTR;
	return -r;
}

hidden int __sysio_fd_ready(int fd, int ev)
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
