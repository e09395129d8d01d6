/*
 * io.h — what io.c (threads waiting on the kernel) and poll.c (the
 * multiplexer) share.
 *
 * A thread waiting on the kernel is on __green_io_q with one of:
 *   GW_FD, GW_CHILD  wait_obj is a key encoding one descriptor and the
 *                    events (GREEN_IN/OUT/PRI): no memory at all;
 *   GW_POLL          wait_obj points to a heap copy of the program's set
 *                    (never its stack: a parked stack may be elsewhere).
 */
#ifndef GREEN_IO_H
#define GREEN_IO_H

#include <poll.h>
#include "gthread.h"
#include "fdwait.h"

struct io_set {
	unsigned long n;
	struct green_io_node *nodes;   /* n, one per entry (epoll.c) */
	struct pollfd fds[];
};

/* A single-descriptor wait's key: the descriptor above the events
 * (debug.c exports the shift for gdb). */
#define GREEN_IO_KEY_SHIFT 3
#define GREEN_IO_KEY_EVENTS ((1u << GREEN_IO_KEY_SHIFT) - 1)
_Static_assert(((GREEN_IN | GREEN_OUT | GREEN_PRI) & ~GREEN_IO_KEY_EVENTS) == 0,
               "io.h: a key's events fit below the descriptor");

static inline const void *io_key(int fd, int ev)
{
	return (const void *)(((uintptr_t)(unsigned)fd << GREEN_IO_KEY_SHIFT) | (ev & GREEN_IO_KEY_EVENTS));
}
static inline int io_key_fd(const void *k) { return (int)((uintptr_t)k >> GREEN_IO_KEY_SHIFT); }
static inline int io_key_ev(const void *k) { return (int)((uintptr_t)k & GREEN_IO_KEY_EVENTS); }

extern hidden struct gq __green_io_q;   /* threads waiting on the kernel */
extern hidden size_t __green_io_nfds;   /* descriptors they wait on, at most */

/* Make room for n descriptors in the multiplexer (thread context only:
 * the multiplexer itself never allocates).  0 or ENOMEM. */
hidden int __green_io_reserve(size_t n);

/* The backends (poll.c).  GREEN_IO names one; unset, select, switching
 * to epoll for good once the wait set reaches GREEN_ARCH_AUTO_EPOLL_AT
 * descriptors (arch.h; never on a CPU that does not define it). */
enum { GREEN_IO_AUTO, GREEN_IO_SELECT, GREEN_IO_POLL, GREEN_IO_EPOLL };

/* Before parking, inside GREEN_ENTER, with the waiter's nodes filled in
 * (fd, events as poll bits, t): the epoll backend links and registers
 * them.  0: park; EAGAIN: a descriptor is always ready (a regular file),
 * retry at once; EBADF: one is not open; ENOMEM. */
hidden int __green_io_arm(struct green_io_node *, size_t n);

/* epoll.c: registrations kept across waits.  Inside GREEN_ENTER. */
hidden int __green_epoll_park(struct green_io_node *, size_t n);   /* as __green_io_arm; ENOSYS: no epoll */
hidden void __green_epoll_unpark(struct green_io_node *, size_t n);
hidden int __green_epoll_start(void);                     /* link every waiter; ENOSYS: no epoll */
hidden int __green_epoll_round(const struct timespec *);  /* a backend's wait, waking the ready; -ENOSYS */
hidden void __green_epoll_stop(void);                     /* give the instance up */
hidden int __green_epoll_closing(int fd);                 /* before a close: 1 if it woke the waiters */
hidden void __green_epoll_forget(unsigned first, unsigned last);  /* after numbers were closed */
hidden void __green_epoll_reset(void);                    /* fork child */
extern hidden int __green_io_mode;                        /* GREEN_IO_* in use */

#endif
