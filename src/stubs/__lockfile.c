/*
 * __lockfile.c — FILE locks owned by green threads.
 *
 * The lock word holds the owner's id (the per-thread "tid" switch.c binds
 * into musl's TCB), with MAYBE_WAITERS set once somebody had to wait.  A
 * thread that finds the FILE held by another — perhaps one parked in a
 * read while holding it — waits greenly on the word.
 */
#include "stdio_impl.h"
#include "sync/addrwait.h"

int __lockfile(FILE *f)
{
	int tid = __pthread_self()->tid;

	if ((f->lock & ~MAYBE_WAITERS) == tid) return 0;
	__green_word_lock(&f->lock, tid, MAYBE_WAITERS);
	return 1;
}

void __unlockfile(FILE *f)
{
	__green_word_unlock(&f->lock, MAYBE_WAITERS);
}
