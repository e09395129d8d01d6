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
#include "green.h"

struct io_set {
	unsigned long n;
	struct pollfd fds[];
};

static inline const void *io_key(int fd, int ev)
{
	return (const void *)(((uintptr_t)(unsigned)fd << 3) | (ev & 7));
}
static inline int io_key_fd(const void *k) { return (int)((uintptr_t)k >> 3); }
static inline int io_key_ev(const void *k) { return (int)((uintptr_t)k & 7); }

extern hidden struct gq __green_io_q;   /* threads waiting on the kernel */
extern hidden size_t __green_io_nfds;   /* descriptors they wait on, at most */

/* Make room for n descriptors in the multiplexer (thread context only:
 * the multiplexer itself never allocates).  0 or ENOMEM. */
hidden int __green_io_reserve(size_t n);

#endif
