/*
 * __lock.c — musl's internal lock (malloc, atexit, random, locale, tz,
 * syslog, dirent, stdio's open-file list, ...).
 *
 * The word is 0 (free), 1 (held) or 3 (held, maybe waiters; the shared
 * lock word of futex.c, owner 1 and flag 2).  A holder
 * may be preempted or may block inside the critical section (syslog holds
 * its lock across a send): contenders then wait greenly on the word, so a
 * preempted malloc is never re-entered.  Taking and testing the word is
 * one no-preempt section; no atomics are needed on one kernel thread.
 */
#include "sync/addrwait.h"

void __lock(volatile int *l)
{
	int need = libc.need_locks;
	if (!need) return;
	__green_word_lock(l, 1, 2);
	/* after fork musl marks the child single-threaded this way */
	if (need < 0) libc.need_locks = 0;
}

void __unlock(volatile int *l)
{
	if (*l) __green_word_unlock(l, 2);
}
