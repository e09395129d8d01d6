/*
 * io.h — what io.c (threads waiting on the kernel), poll.c (the
 * multiplexer) and epoll.c (its epoll backend) share beyond the queue of
 * waiters and their records (ioq.h).  Nothing outside the I/O layer
 * includes it.
 */
#ifndef GREEN_IO_H
#define GREEN_IO_H

#include "base/gthread.h"
#include "base/gconfig.h"
#include "sched/block.h"
#include "fdtab.h"
#include "ioq.h"

extern hidden size_t __green_io_nfds;   /* descriptors __green_io_q waits on, at most */

/* Make room for n descriptors in the multiplexer (thread context only:
 * the multiplexer itself never allocates).  0 or ENOMEM. */
hidden int __green_io_reserve(size_t n);

/* Before parking, inside GREEN_ENTER, with the waiter's nodes filled in
 * (fd, events as epoll's bits, t): the epoll backend links and
 * registers them; select and poll make room in their arrays.  0: park;
 * EAGAIN: a descriptor is always ready (a regular file), retry at once;
 * EBADF: one is not open; ENOMEM. */
hidden int __green_io_arm(struct green_io_node *, size_t n);

/* epoll.c: registrations kept across waits.  Inside GREEN_ENTER. */
hidden int __green_epoll_park(struct green_io_node *, size_t n);   /* as __green_io_arm; ENOSYS: no epoll */
hidden void __green_epoll_unpark(struct green_io_node *, size_t n);

hidden int __green_epoll_start(void);                     /* link every waiter; ENOSYS: no epoll */
hidden int __green_epoll_round(long long *kts, const uint64_t *mask);  /* a backend's wait (poll.c), waking the ready; -ENOSYS */
hidden int __green_epoll_maskless(void);                  /* its wait's timeout can be cut (poll.c) */
hidden void __green_epoll_stop(void);                     /* give the instance up */
hidden int __green_epoll_closing(int fd);                 /* before a close: 1 if it woke the waiters */
hidden void __green_epoll_forget(unsigned first, unsigned last);  /* after numbers were closed */
hidden void __green_epoll_reset(void);                    /* fork child */
hidden void __green_epoll_wake_usual(void);               /* wake the usual waits (io.c) to retry */
extern hidden int __green_io_mode;                        /* GREEN_IO_* in use (gconfig.h) */

/* epoll.c's instance as the usual wait sees it (io.c: one descriptor,
 * already registered for what it wants, nothing to tell the kernel):
 * the instance's generation, which an entry's inst matches only while
 * it is registered in the live instance, and the lists' generation,
 * under which an entry's head is valid.  Inside GREEN_ENTER. */
extern hidden unsigned __green_epoll_inst, __green_epoll_lists;

static inline int green_epoll_registered(const struct green_fd *e)
{
	return e->inst == __green_epoll_inst;
}

/* n (fd, events set) onto e's list of waiters */
static inline void green_epoll_link(struct green_io_node *n, struct green_fd *e)
{
	struct green_io_node *h = e->head;

	if (__builtin_expect(e->lgen != __green_epoll_lists, 0)) {
		e->lgen = __green_epoll_lists;
		h = 0;
	}
	n->prev = 0;
	n->next = h;
	if (h) h->prev = n;
	e->head = n;
	n->linked = 1;
}

static inline void green_epoll_unlink(struct green_io_node *n, struct green_fd *e)
{
	if (n->prev) n->prev->next = n->next;
	else if (e->lgen == __green_epoll_lists) e->head = n->next;
	if (n->next) n->next->prev = n->prev;
	n->linked = 0;
}

/* poll.c: how many descriptors select and poll may wait on with no
 * more room made and no change of backend (0 before the first wait
 * chose one) */
extern hidden size_t __green_io_room;

/*
 * The usual wait, in one piece: one descriptor, no deadline, nothing to
 * tell the kernel, nothing to decide.  With the epoll backend, the
 * descriptor is registered for what the thread wants, and the thread
 * queues on nothing; with select or poll, the round's arrays have room
 * for one more descriptor without a change of backend, and the thread
 * joins the kernel-wait queue at its tail (green_park, sched/block.h: the round
 * gathers every waiter, whatever their order; poll.c).
 * Either way the thread's own node stays on the descriptor's list after
 * the wait (epoll.c finds waiters there, and so does a peer's write,
 * peer.c; a connection thread waits on the same socket again and
 * again), marked waiting for the length of each, and the thread is
 * counted in __green_io_nfds, which says threads wait on the kernel.
 * fd's entry is e, ev the epoll bits it waits for, self __green_cur
 * (one register for it across the switch).  Inside GREEN_ENTER,
 * a pending cancel looked at; -1 when the wait is not the usual one
 * (io.c does the rest).  Always in line, with the block and the switch
 * (sched/block.h): out of line it was a frame more on every wait, 18
 * instructions of an echo's round trip.
 */
static inline __attribute__((always_inline)) int green_usual_wait(struct green_thread *self, int fd, unsigned ev,
                                                                struct green_fd *e, const void *key,
                                                                enum gwait kind)
{
	struct green_io_node *n = &self->io_node;
	int epoll = __green_io_mode == GREEN_IO_EPOLL, r;

	if (epoll ? !green_epoll_registered(e) || (e->reg & ev) != ev : __green_io_nfds >= __green_io_room)
		return -1;
	if (__builtin_expect(!n->linked || n->fd != fd, 0)) {
		if (n->linked) green_epoll_unlink(n, &__green_fds[n->fd]);
		n->t = self;
		n->fd = fd;
		green_epoll_link(n, e);
		green_fd_used(fd);
	}
	n->events = ev;
	n->waiting = 1;
	__green_io_nfds++;
	r = green_park(self, epoll ? 0 : &__green_io_q, kind, key);   /* sched/block.h: in line */
	__green_io_nfds--;
	n->waiting = 0;
	return r;
}

#endif
