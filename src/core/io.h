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

#endif
