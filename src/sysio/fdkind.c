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
 * close_range, dup2 and dup3 made with syscall() (src/members/syscall.c).
 * Every other way to a descriptor (open, socket, pipe, accept, dup,
 * F_DUPFD, a received SCM_RIGHTS) hands out a number that was free, so
 * forgotten at its last close.  So is the number's peer, the other end
 * of a pipe or socket pair made here (peer.c), on both ends.  A fork
 * child inherits the table with the descriptors; exec starts afresh.
 *
 * Whether the program made the descriptor non-blocking (O_NONBLOCK) is
 * known the same way: a call that would block asks F_GETFL once, and the
 * answer holds until the number is forgotten, or until the program
 * changes any descriptor's flags (fcntl F_SETFL, ioctl FIONBIO, through
 * the functions or syscall(): src/members/fcntl.c, ioctl.c, syscall.c).
 * Such a change forgets every number's answer at once, by a new era: the
 * flag belongs to the open file, which other numbers (dup) may share.  A
 * change made by another process to a file it shares is not seen: a
 * thread that learnt "blocking" then waits where the kernel would say
 * EAGAIN, the behaviour its program asked for itself.
 *
 * Whether a read is likely to find nothing.  A connection thread that
 * has just answered reads again at once, and the other party has not
 * had time to speak: the read's non-blocking attempt is a system call
 * that answers EAGAIN, before the wait.  After MISS_TRUST such first
 * attempts in a row on a number, its blocking reads wait for readiness
 * first, as an event loop reads only what epoll reported, and try when
 * woken.  One read in PROBE_EVERY still tries first, so a descriptor
 * whose data is usually there (a pipelining client, a file-like
 * device) is found out and tried first again.  A wrong guess costs the
 * thread no more than data arriving just after its attempt would: it
 * runs when the next idle wait or tick finds the descriptor ready, so
 * guesses are made only while ticks may run (GREEN_QUANTUM_MS not 0;
 * cooperative scheduling has no tick to bound them).  The streak is
 * forgotten with the number.
 *
 * Forgetting is always safe (it costs one fstat more); a number known as
 * a file while it names a pipe would block the process.  So fstat and
 * the store are one no-preempt section, where no other green thread can
 * close and reuse the number in between; and forgetting follows the
 * close, so what another thread learns of a new descriptor in the
 * meantime is at worst forgotten once too often.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include "base/gthread.h"
#include "base/section.h"
#include "fdwait.h"
#include "fdtab.h"
#include "io.h"

hidden unsigned __green_fd_era = 2;   /* of O_NONBLOCK's answers, shifted (green_fd.nb) */
#define era __green_fd_era

static int learn(int fd)
{
	struct green_fd *f = green_fd(fd);
	struct stat st;
	int k = FD_WAITS;

	GREEN_ENTER();
	/* a bad descriptor stays unknown: the call itself reports it */
	if (fstat(fd, &st)) k = FD_UNKNOWN;
	else if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode)) k = FD_NEVER_WAITS;
	else if (S_ISSOCK(st.st_mode)) k = FD_SOCKET;
	if (f) {
		f->kind = k;
		green_fd_used(fd);
	}
	GREEN_LEAVE();
	return k;
}

/* fd's kind, learnt now if it is not known */
hidden int __green_fd_kind(int fd)
{
	struct green_fd *f = green_fd(fd);
	int k = f ? f->kind : FD_UNKNOWN;
	return k == FD_UNKNOWN ? learn(fd) : k;
}

hidden int __green_fd_never_waits(int fd)
{
	return __green_fd_kind(fd) == FD_NEVER_WAITS;
}

/* Known as a socket (after __green_fd_never_waits learnt the number). */
hidden int __green_fd_is_socket(int fd)
{
	struct green_fd *f = green_fd(fd);
	return f && f->kind == FD_SOCKET;
}

hidden int __green_fd_no_nowait(int fd)
{
	struct green_fd *f = green_fd(fd);
	return f && f->kind == FD_WAITS_NO_NOWAIT;
}

hidden void __green_fd_refused_nowait(int fd)
{
	struct green_fd *f = green_fd(fd);
	if (f && f->kind == FD_WAITS) f->kind = FD_WAITS_NO_NOWAIT;
}

/* Did the program make fd non-blocking?  (An error, EBADF, says no: the
 * call that follows reports it.) */
hidden int __green_fd_nonblocking(int fd)
{
	struct green_fd *f = green_fd(fd);
	long fl;
	int nb;

	if (f && (f->nb & ~1u) == era) return f->nb & 1;
	/* no switch between the question and the store: a change of flags
	 * made by another thread is before it or after it (a new era) */
	GREEN_ENTER();
	fl = __syscall(SYS_fcntl, fd, F_GETFL);
	nb = fl >= 0 && (fl & O_NONBLOCK) && !(f && f->lst == LST_GREEN);   /* green's: listener.c */
	if (fl >= 0 && f) {
		f->nb = era | nb;
		green_fd_used(fd);
	}
	GREEN_LEAVE();
	return nb;
}

/* Should a blocking read of fd wait for readiness before it tries?  (Its
 * first attempts found nothing FD_MISS_TRUST times in a row.) */
hidden int __green_fd_read_waits_first(int fd)
{
	struct green_fd *f = green_fd(fd);
	return f && f->miss >= FD_MISS_TRUST;
}

/* A read's first attempt found nothing (empty) or something; or, with
 * empty -1, a read that waited first found its data there before any
 * other thread ran: trying first would have found it. */
hidden void __green_fd_read_tried(int fd, int empty)
{
	struct green_fd *f = green_fd(fd);
	if (!f) return;
	if (empty <= 0) f->miss = 0;
	else green_fd_missed(f);
}

/* Some descriptor's flags changed (after the change): ask again. */
hidden void __green_fd_flags_changed(void)
{
	if ((era += 2)) return;
	/* 2^31 changes: start the eras again, forgetting each answer */
	era = 2;
	for (unsigned fd = 0; fd < __green_fds_end; fd++) __green_fds[fd].nb = 0;
}

hidden void __green_fd_forget(unsigned first, unsigned last)
{
	for (unsigned fd = first; fd < __green_fds_end && fd <= last; fd++) {
		struct green_fd *f = &__green_fds[fd];
		f->kind = FD_UNKNOWN;
		f->nb = 0;
		f->miss = 0;
		f->turn = 0;
		f->lst = LST_UNKNOWN;
		if (f->peer) {   /* both ends forget the pair (peer.c) */
			struct green_fd *o = green_fd_peer(f);
			if (o->peer == -f->peer) o->peer = 0;
			f->peer = 0;
		}
	}
	/* the epoll backend's registrations of these numbers go too (epoll.c) */
	if (!green_active()) return;
	GREEN_ENTER();
	__green_epoll_forget(first, last);
	GREEN_LEAVE();
}
