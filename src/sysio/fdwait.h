/*
 * fdwait.h — the I/O layer's waits on descriptors (io.c) and what is
 * known of each descriptor (fdkind.c), for the engine, the stubs, the
 * members that change descriptors (fcntl.c, ioctl.c, syscall.c) and the
 * core's own users (AIO, named semaphores).  The idle wait is idlewait.h;
 * what io.c, poll.c and epoll.c share besides is io.h.
 */
#ifndef GREEN_FDWAIT_H
#define GREEN_FDWAIT_H
#include "base/gthread.h"

/* ---- descriptor waits (io.c)
 * The caller, inside no critical section, parks until the event, the
 * deadline or a wake: 0 (ready, or time to retry), ETIMEDOUT, EINTR,
 * ECANCELED, EBADF (the descriptor was closed by another thread).
 * cp 1 makes the wait a cancellation point (GREEN_CP_WAIT).
 * GREEN_IN/GREEN_OUT/GREEN_PRI are the events of a single-fd wait. */
#define GREEN_IN  1
#define GREEN_OUT 2
#define GREEN_PRI 4
struct pollfd;
hidden int __green_fd_wait(int fd, int events, uint64_t deadline, enum gwait kind, int cp);
hidden int __green_fds_wait(const struct pollfd *, unsigned long n, uint64_t deadline, int cp);
hidden void __green_fd_closed(int fd);          /* wake its waiters with EBADF */
hidden void __green_io_thread_exit(struct green_thread *);   /* its node off any list (epoll.c) */

/* ---- descriptor kinds (fdkind.c): learnt by fstat at the first read or
 * write, forgotten after whatever makes the numbers name something else */
hidden int __green_fd_never_waits(int fd);      /* a regular file, block device or directory */
hidden int __green_fd_is_socket(int fd);        /* known as a socket */
hidden int __green_fd_nonblocking(int fd);      /* the program made it O_NONBLOCK */
hidden void __green_fd_flags_changed(void);     /* F_SETFL or FIONBIO on some descriptor */
hidden int __green_fd_no_nowait(int fd);        /* its kind refused RWF_NOWAIT before */
hidden void __green_fd_refused_nowait(int fd);  /* remember that */
hidden void __green_fd_forget(unsigned first, unsigned last);
hidden int __green_fd_read_waits_first(int fd);  /* its reads found nothing lately */
hidden void __green_fd_read_tried(int fd, int empty);

/* ---- listening sockets made non-blocking by green (listener.c): the
 * program's view of their flags, for fcntl and ioctl */
hidden long __green_listener_getfl(int fd, long flags);   /* F_GETFL's answer */
hidden long __green_listener_setfl(int fd, long flags);   /* F_SETFL's argument */
hidden int __green_listener_greens(int fd);              /* its O_NONBLOCK is green's */
hidden void __green_listener_flags_set(int fd, int kept);   /* after F_SETFL, FIONBIO */

#endif
