/*
 * fdkind.c — what green knows of a descriptor number: whether a read or
 * write on it can wait for another party at all, and whether its kind
 * refused RWF_NOWAIT.
 *
 * A regular file, a block device or a directory never waits for anyone:
 * poll and select always call it ready, and a call on it blocks, if at
 * all, only for the disk.  Its reads and writes are the plain call stock
 * musl makes (src/sysio/dispatch.c): no RWF_NOWAIT attempt, no
 * readiness check, and a write is never cut into pieces (a regular-file
 * write split in two is no longer atomic for another process appending
 * to the same file).  Every other kind (pipe, FIFO, socket, terminal,
 * other character device, eventfd, ...) may wait, and takes the
 * non-blocking path; those of them that refuse RWF_NOWAIT (FIFOs,
 * terminals) are remembered, so that later calls go to the readiness
 * check at once.  A socket is known as one: its plain read and write
 * are made as recvfrom and sendto with MSG_DONTWAIT (src/sysio/dispatch.c),
 * the same call for a socket without the vector the RWF_NOWAIT forms
 * make the kernel copy in and check.
 *
 * The kind is learnt at the first read or write through green, by one
 * fstat per descriptor lifetime, and forgotten when the number stops
 * naming that file: close and fclose, dup2 and dup3 over it, and close,
 * close_range, dup2 and dup3 made with syscall() (src/stubs/syscall.c).
 * Every other way to a descriptor (open, socket, pipe, accept, dup,
 * F_DUPFD, a received SCM_RIGHTS) hands out a number that was free, so
 * forgotten at its last close.  A fork child inherits the table with the
 * descriptors; exec starts afresh.
 *
 * Forgetting is always safe (it costs one fstat more); a number known as
 * a file while it names a pipe would block the process.  So fstat and
 * the store are one no-preempt section, where no other green thread can
 * close and reuse the number in between; and forgetting follows the
 * close, so what another thread learns of a new descriptor in the
 * meantime is at worst forgotten once too often.
 */
#include <sys/stat.h>
#include "io.h"

enum { UNKNOWN, NEVER_WAITS, WAITS, WAITS_NO_NOWAIT, SOCKET };

/* One byte per number up to the kernel's default limit (fs.nr_open);
 * only the pages of numbers in use are ever touched.  A number beyond
 * is asked about with fstat at each call. */
#define KNOWN_MAX (1u << 20)
static unsigned char kind[KNOWN_MAX];
static unsigned known_end;              /* above the highest number learnt */

static int learn(int fd)
{
	struct stat st;
	int k = WAITS;

	GREEN_ENTER();
	/* a bad descriptor stays unknown: the call itself reports it */
	if (fstat(fd, &st)) k = UNKNOWN;
	else if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode)) k = NEVER_WAITS;
	else if (S_ISSOCK(st.st_mode)) k = SOCKET;
	if ((unsigned)fd < KNOWN_MAX) {
		kind[fd] = k;
		if ((unsigned)fd >= known_end) known_end = fd + 1;
	}
	GREEN_LEAVE();
	return k;
}

hidden int __green_fd_never_waits(int fd)
{
	int k = (unsigned)fd < KNOWN_MAX ? kind[fd] : UNKNOWN;
	if (k == UNKNOWN) k = learn(fd);
	return k == NEVER_WAITS;
}

/* Known as a socket (after __green_fd_never_waits learnt the number). */
hidden int __green_fd_is_socket(int fd)
{
	return (unsigned)fd < KNOWN_MAX && kind[fd] == SOCKET;
}

hidden int __green_fd_no_nowait(int fd)
{
	return (unsigned)fd < KNOWN_MAX && kind[fd] == WAITS_NO_NOWAIT;
}

hidden void __green_fd_refused_nowait(int fd)
{
	if ((unsigned)fd < KNOWN_MAX && kind[fd] == WAITS) kind[fd] = WAITS_NO_NOWAIT;
}

hidden void __green_fd_forget(unsigned first, unsigned last)
{
	for (unsigned fd = first; fd < known_end && fd <= last; fd++) kind[fd] = UNKNOWN;
	/* the epoll backend's registrations of these numbers go too (epoll.c) */
	if (!green_active()) return;
	GREEN_ENTER();
	__green_epoll_forget(first, last);
	GREEN_LEAVE();
}
