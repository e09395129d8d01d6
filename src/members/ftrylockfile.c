/*
 * ftrylockfile.c — ftrylockfile, and the list of the FILEs a thread
 * holds by flockfile, kept in the green thread's descriptor.
 *
 * musl keeps that list's head in the TCB, and green threads that share
 * one TCB would have to save and restore it at every switch.  Only this
 * member and funlockfile/fclose (through __unlist_locked_file) and
 * flockfile (through __register_locked_file) reach it, always for the
 * thread that holds the FILE, which is the running one: so the head
 * lives in the running green thread's descriptor and no switch touches
 * it.  The lock word itself is musl's, owned by the thread's tid (the
 * one per-thread id the switch binds, stubs/__lockfile.c).  A thread
 * that exits holding FILE locks hands them on through musl.c, which
 * looks at every FILE, not at this list.
 */
#include "stdio_impl.h"
#include "pthread_impl.h"
#include <limits.h>
#include "base/gthread.h"

/* f, just taken by the running thread, joins the front of its list */
void __register_locked_file(FILE *f, pthread_t self)
{
	struct green_libc_local *my = green_libc_local();

	(void)self;   /* the TCB, which threads may share */
	f->lockcount = 1;
	f->prev_locked = 0;
	f->next_locked = my->stdio_locks;
	if (f->next_locked) f->next_locked->prev_locked = f;
	my->stdio_locks = f;
}

/* f, about to be released for the last time (or closed) by the running
 * thread, leaves its list if it is on it */
void __unlist_locked_file(FILE *f)
{
	if (!f->lockcount) return;
	if (f->next_locked) f->next_locked->prev_locked = f->prev_locked;
	if (f->prev_locked) f->prev_locked->next_locked = f->next_locked;
	else green_libc_local()->stdio_locks = f->next_locked;
}

int ftrylockfile(FILE *f)
{
	int self = __pthread_self()->tid, held = f->lock;

	if ((held & ~MAYBE_WAITERS) == self) {   /* again, by its holder */
		if (f->lockcount == LONG_MAX) return -1;
		f->lockcount++;
		return 0;
	}
	if (held < 0) held = f->lock = 0;   /* a FILE of a program that was single-threaded */
	if (held || a_cas(&f->lock, 0, self)) return -1;
	__register_locked_file(f, 0);
	return 0;
}
