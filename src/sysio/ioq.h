/*
 * ioq.h — the threads waiting on the kernel (io.c) and what each one's
 * wait record holds: what the diagnostics (report.c, gdb_layout.c) read of
 * the I/O layer, and the multiplexer (poll.c, epoll.c) walks.
 *
 * A thread waiting on the kernel is on __green_io_q with one of:
 *   GW_FD, GW_CHILD  wait_obj is a key encoding one descriptor and the
 *                    events (GREEN_IN/OUT/PRI): no memory at all;
 *   GW_POLL          wait_obj points to a heap copy of the program's set
 *                    (never its stack: a parked stack may be elsewhere).
 */
#ifndef GREEN_IOQ_H
#define GREEN_IOQ_H

#include <poll.h>
#include "base/gthread.h"
#include "fdwait.h"

struct io_set {
	unsigned long n;
	struct green_io_node *nodes;   /* n, one per entry (epoll.c) */
	struct pollfd fds[];
};

/* A single-descriptor wait's key: the descriptor above the events
 * (gdb_layout.c exports the shift for gdb). */
#define GREEN_IO_KEY_SHIFT 3
#define GREEN_IO_KEY_EVENTS ((1u << GREEN_IO_KEY_SHIFT) - 1)
_Static_assert(((GREEN_IN | GREEN_OUT | GREEN_PRI) & ~GREEN_IO_KEY_EVENTS) == 0,
               "ioq.h: a key's events fit below the descriptor");

static inline const void *io_key(int fd, int ev)
{
	return (const void *)(((uintptr_t)(unsigned)fd << GREEN_IO_KEY_SHIFT) | (ev & GREEN_IO_KEY_EVENTS));
}
static inline int io_key_fd(const void *k) { return (int)((uintptr_t)k >> GREEN_IO_KEY_SHIFT); }
static inline int io_key_ev(const void *k) { return (int)((uintptr_t)k & GREEN_IO_KEY_EVENTS); }

extern hidden struct gq __green_io_q;   /* threads waiting on the kernel */
hidden void __green_io_reset(void);     /* io.c: in a fork child, none waits */

#endif
