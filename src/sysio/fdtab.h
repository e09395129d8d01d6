/*
 * fdtab.h — everything green keeps about one descriptor number, in one
 * entry: the facts fdkind.c learns (its kind, whether the program made
 * it non-blocking, whether its reads lately found nothing) and the
 * epoll backend's registration and waiters (epoll.c).  A read or write
 * on the fast path (fastio.h) looks at one entry, once (40 bytes).
 *
 * One entry per number below GREEN_FDS_MAX, the kernel's default limit
 * (fs.nr_open); only the pages of numbers in use are ever touched.  A
 * number beyond has no entry: its kind is asked with fstat at each call
 * and the epoll backend gives way to poll (epoll.c).
 *
 * Who writes what: the running thread, inside a no-preempt section
 * where a tick or another thread could see a half-made change (learning
 * a kind, registering, linking a waiter); the miss streak alone is
 * written outside one, a byte that nobody else reads half-written.  The
 * tick's multiplexer round reads the epoll fields (head, reg, serial,
 * inst, lgen) at any instruction outside sections.
 */
#ifndef GREEN_FDTAB_H
#define GREEN_FDTAB_H
#include "base/gthread.h"
#include "base/gconfig.h"

/* a descriptor's kind (fdkind.c) */
enum { FD_UNKNOWN, FD_NEVER_WAITS, FD_WAITS, FD_WAITS_NO_NOWAIT, FD_SOCKET };

struct green_fd {
	/* epoll.c: the threads waiting on it, valid while lgen is the
	 * lists' generation; what is registered, valid while inst is the
	 * instance's; the registration's serial, in its events' data */
	struct green_io_node *head;
	unsigned reg, serial, inst, lgen;
	/* fdkind.c: O_NONBLOCK as learnt (the era | non-blocking; any
	 * other era: ask again), and the kind */
	unsigned nb;
	unsigned char kind;
	/* listener.c: a listening socket's O_NONBLOCK is green's (the
	 * program's view: blocking) or the program's; LST_UNKNOWN: ask */
	unsigned char lst;
	/* peer.c: where the entry of the other end of a pipe or socket
	 * pair made in this process is, in bytes from this one (0: none
	 * known; green_fd_peer); a write here makes it readable */
	int peer;
	/* fdkind.c: the reads' first attempts that found nothing, in a row
	 * (FD_MISS_TRUST and up: a blocking read waits for readiness
	 * first); counted only while ticks may run (green_fd_missed): under
	 * GREEN_QUANTUM_MS=0 no tick bounds a wrong guess, and a thread
	 * that keeps yielding would keep a read that waits first from data
	 * already there.
	 * peer.c: turn, 1 when a read found data here since a write here
	 * last woke the peer's list (the peer's reader then has the CPU
	 * handed to it: a request after a reply); set by the fast reads
	 * (read, recvfrom, and a socket read's wait in them: never in a
	 * recorded run, whose threads keep off them), cleared by that wake.
	 * The two and two spare bytes are one word, which a read that found
	 * data stores whole (green_fd_found). */
	union {
		struct {
			unsigned char miss, turn, spare[2];
		};
		uint32_t reads;
	};
};

/* reads as a read that found data leaves it: miss 0, turn 1 */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FD_READS_FOUND 0x100u
#else
#define FD_READS_FOUND 0x10000u
#endif

enum { LST_UNKNOWN, LST_GREEN, LST_PROGRAM };

#define GREEN_FDS_MAX (1u << 20)
#define FD_MISS_TRUST 2

/* A read of f's descriptor found nothing first: one miss more (ticks
 * running only; the quantum looked at first, so that under
 * GREEN_QUANTUM_MS=0 the look is one test). */
static inline void green_fd_missed(struct green_fd *f)
{
	if (__green_config.quantum_us && f->miss < FD_MISS_TRUST) f->miss++;
}

/* A read of f's descriptor found data: its reads try first, and it was
 * read since its last write (one 4-byte store) */
static inline void green_fd_found(struct green_fd *f)
{
	f->reads = FD_READS_FOUND;
}

extern hidden struct green_fd __green_fds[GREEN_FDS_MAX];

/* fd's entry again after a system call on fd (which has one): found
 * from the number, which the call's register keeps, not from the
 * address computed before it, which the compiler would keep across the
 * call in a register the fast read and write would have to save */
static inline struct green_fd *green_fd_after(long fd)
{
	__asm__("" : "+r"(fd));
	return &__green_fds[fd];
}
extern hidden unsigned __green_fds_end;   /* above the highest number with an entry in use */

/* the era of the O_NONBLOCK answers (fdkind.c), kept shifted left by one
 * (2, 4, ...): an entry's nb for "blocking" in it, with no shift to make */
extern hidden unsigned __green_fd_era;
hidden int __green_fd_nonblocking(int fd);

/* Did the program make fd, whose entry f is, non-blocking?  Asked of the
 * kernel only when the answer is not known in this era (fdkind.c). */
static inline int green_fd_nonblocking(const struct green_fd *f, int fd)
{
	unsigned blocking = __green_fd_era;   /* the entry's word for "blocking" in this era */

	if (__builtin_expect(f->nb == blocking, 1)) return 0;
	return f->nb == (blocking | 1) ? 1 : __green_fd_nonblocking(fd);
}

/* the entry of the other end of f's pair (f->peer not 0) */
static inline struct green_fd *green_fd_peer(const struct green_fd *f)
{
	return (struct green_fd *)((char *)f + f->peer);
}

/* fd's entry, or 0 beyond the table (a negative number included) */
static inline struct green_fd *green_fd(long fd)
{
	return (unsigned long)fd < GREEN_FDS_MAX ? &__green_fds[fd] : 0;
}

/* the entry is about to hold something of fd's */
static inline void green_fd_used(unsigned fd)
{
	if (fd >= __green_fds_end) __green_fds_end = fd + 1;
}

#endif
