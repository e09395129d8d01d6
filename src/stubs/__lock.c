/*
 * __lock.c — musl's internal lock (malloc, atexit, random, locale, tz,
 * syslog, dirent, stdio's open-file list, ...).
 *
 * The word is 0 (free), 1 (held) or 2 (held, maybe waiters).  A holder
 * may be preempted or may block inside the critical section (syslog holds
 * its lock across a send): contenders then wait greenly on the word, so a
 * preempted malloc is never re-entered.  Taking and testing the word is
 * one no-preempt section; no atomics are needed on one kernel thread.
 */
#include "green.h"

void __lock(volatile int *l)
{
	int need = libc.need_locks, waited = 0;
	if (!need) return;
	GREEN_ENTER();
	while (*l) {
		*l = 2;
		__green_futex_wait(l, 2, GREEN_NO_DEADLINE, GW_ADDR);
		waited = 1;
	}
	*l = waited ? 2 : 1;   /* others may still wait behind us */
	/* after fork musl marks the child single-threaded this way */
	if (need < 0) libc.need_locks = 0;
	GREEN_LEAVE();
}

void __unlock(volatile int *l)
{
	int old = *l;
	if (!old) return;
	*l = 0;
	if (old == 2) __green_futex_wake(l, 1);
}
