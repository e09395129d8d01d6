/*
 * __lockfile.c — FILE locks owned by green threads.
 *
 * The lock word holds the owner's id (the per-thread "tid" switch.c binds
 * into musl's TCB), with MAYBE_WAITERS set once somebody had to wait.  A
 * thread that finds the FILE held by another — perhaps one parked in a
 * read while holding it — waits greenly on the word.
 */
#include "stdio_impl.h"
#include "green.h"

int __lockfile(FILE *f)
{
	int tid = __pthread_self()->tid, owner, waited = 0;

	if ((f->lock & ~MAYBE_WAITERS) == tid) return 0;
	GREEN_ENTER();
	while ((owner = f->lock)) {
		f->lock = owner | MAYBE_WAITERS;
		__green_futex_wait(&f->lock, owner | MAYBE_WAITERS, GREEN_NO_DEADLINE, GW_ADDR);
		waited = 1;
	}
	/* others may still wait behind us: keep the flag so unlock wakes one */
	f->lock = waited ? tid | MAYBE_WAITERS : tid;
	GREEN_LEAVE();
	return 1;
}

void __unlockfile(FILE *f)
{
	int old = f->lock;
	f->lock = 0;
	if (old & MAYBE_WAITERS) __green_futex_wake(&f->lock, 1);
}
