/*
 * stdio-lock.h — the per-character stdio functions' locking, shared by
 * getc.c, fgetc.c, getchar.c, putc.c, fputc.c and putchar.c.
 *
 * musl's versions of these inline a futex wake; ours take the FILE lock
 * through __lockfile/__unlockfile, which wait greenly.  The fast paths are
 * musl's: no lock while the program is single-threaded (lock < 0), none
 * when the caller already holds it (flockfile).
 */
#ifndef GREEN_STDIO_LOCK_H
#define GREEN_STDIO_LOCK_H

#include "stdio_impl.h"
#include "pthread_impl.h"

static inline int green_needs_lock(FILE *f)
{
	int l = f->lock;
	if (l < 0) return 0;
	return !l || (l & ~MAYBE_WAITERS) != __pthread_self()->tid;
}

static inline int green_getc(FILE *f)
{
	int c;
	if (!green_needs_lock(f)) return getc_unlocked(f);
	__lockfile(f);
	c = getc_unlocked(f);
	__unlockfile(f);
	return c;
}

static inline int green_putc(int c, FILE *f)
{
	if (!green_needs_lock(f)) return putc_unlocked(c, f);
	__lockfile(f);
	c = putc_unlocked(c, f);
	__unlockfile(f);
	return c;
}

#endif
