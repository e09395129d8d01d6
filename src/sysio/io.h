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

/* Every linked node, whatever its descriptor (io.c): the select and
 * poll rounds find the usual waits there (poll.c), which wait on no
 * queue.  A node is on it exactly while its linked flag is set. */
extern hidden struct green_io_node *__green_io_linked;

/* n (fd, events set, not linked) onto e's list of waiters */
static inline void green_epoll_link(struct green_io_node *n, struct green_fd *e)
{
	struct green_io_node *h = e->head, *l = __green_io_linked;

	if (__builtin_expect(e->lgen != __green_epoll_lists, 0)) {
		e->lgen = __green_epoll_lists;
		h = 0;
	}
	n->prev = 0;
	n->next = h;
	if (h) h->prev = n;
	e->head = n;
	n->lprev = 0;
	n->lnext = l;
	if (l) l->lprev = n;
	__green_io_linked = n;
	n->linked = 1;
}

/* The usual wait's node (below) onto fd's (entry e's) list, off the
 * one it stayed on (io.c: out of line, where the registers it needs
 * cost the usual wait nothing) */
hidden void __green_io_relink(struct green_io_node *n, int fd, struct green_fd *e);

/* Is t in the usual wait (below) now: blocked on no queue, its own
 * node linked and waiting? */
static inline int green_in_usual_wait(const struct green_thread *t)
{
	return t->state == GS_BLOCKED && !t->q && t->io_node.waiting && t->io_node.linked;
}

/* n, linked, off the list of every linked node only (its descriptor's
 * list dropped whole: epoll.c) */
static inline void green_io_unlist(struct green_io_node *n)
{
	if (n->lprev) n->lprev->lnext = n->lnext;
	else __green_io_linked = n->lnext;
	if (n->lnext) n->lnext->lprev = n->lprev;
	n->linked = 0;
}

static inline void green_epoll_unlink(struct green_io_node *n, struct green_fd *e)
{
	if (n->prev) n->prev->next = n->next;
	else if (e->lgen == __green_epoll_lists) e->head = n->next;
	if (n->next) n->next->prev = n->prev;
	green_io_unlist(n);
}

/* poll.c: how many descriptors select and poll may wait on with no
 * more room made and no change of backend (0 before the first wait
 * chose one) */
extern hidden size_t __green_io_room;

/*
 * The usual wait, in one piece: one descriptor, no deadline, nothing to
 * tell the kernel, nothing to decide.  With the epoll backend, the
 * descriptor is registered for what the thread wants; with select or
 * poll, the round's arrays have room for one more descriptor without a
 * change of backend.  Either way the thread queues on nothing: its own
 * node stays on the descriptor's list and on the list of every linked
 * node after the wait (epoll.c finds waiters on the first, a peer's
 * write too, peer.c, and the select and poll rounds on the second,
 * poll.c; a connection thread waits on the same socket again and
 * again), marked waiting for the length of each, and the thread is
 * counted in __green_io_nfds, which says threads wait on the kernel.
 * (The kernel-wait queue took it at its tail and the wake off it again,
 * 38 instructions of an echo's round trip.)
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
	if (__builtin_expect(!n->linked || n->fd != fd, 0)) __green_io_relink(n, fd, e);
	n->events = ev;
	n->waiting = green_node_waiting(ev);
	__green_io_nfds++;
	r = green_park(self, 0, kind, key);   /* sched/block.h: in line */
	__green_io_nfds--;
	n->waiting = 0;
	return r;
}

#endif
