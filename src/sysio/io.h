/*
 * io.h — what io.c (threads waiting on the kernel), poll.c (the
 * multiplexer) and epoll.c (its epoll backend) share beyond the queue of
 * waiters and their records (ioq.h).  Nothing outside the I/O layer
 * includes it.
 */
#ifndef GREEN_IO_H
#define GREEN_IO_H

#include "base/gthread.h"

extern hidden size_t __green_io_nfds;   /* descriptors __green_io_q waits on, at most */

/* Make room for n descriptors in the multiplexer (thread context only:
 * the multiplexer itself never allocates).  0 or ENOMEM. */
hidden int __green_io_reserve(size_t n);

/* Before parking, inside GREEN_ENTER, with the waiter's nodes filled in
 * (fd, events as poll bits, t): the epoll backend links and registers
 * them.  0: park; EAGAIN: a descriptor is always ready (a regular file),
 * retry at once; EBADF: one is not open; ENOMEM. */
hidden int __green_io_arm(struct green_io_node *, size_t n);

/* epoll.c: registrations kept across waits.  Inside GREEN_ENTER. */
hidden int __green_epoll_park(struct green_io_node *, size_t n);   /* as __green_io_arm; ENOSYS: no epoll */
hidden void __green_epoll_unpark(struct green_io_node *, size_t n);
hidden int __green_epoll_start(void);                     /* link every waiter; ENOSYS: no epoll */
hidden int __green_epoll_round(const struct timespec *, const uint64_t *mask);  /* a backend's wait, waking the ready; -ENOSYS */
hidden void __green_epoll_stop(void);                     /* give the instance up */
hidden int __green_epoll_closing(int fd);                 /* before a close: 1 if it woke the waiters */
hidden void __green_epoll_forget(unsigned first, unsigned last);  /* after numbers were closed */
hidden void __green_epoll_reset(void);                    /* fork child */
extern hidden int __green_io_mode;                        /* GREEN_IO_* in use (gconfig.h) */

#endif
