/*
 * spin.c — spin locks.
 *
 * On one CPU spinning cannot make the holder progress, so a contended
 * spin lock waits greenly on its word instead of burning the slice.  The
 * word holds the owner's id (so relocking by the owner is EDEADLK, which
 * POSIX permits) and a flag telling unlock somebody waits.
 */
#include <errno.h>
#include "base/section.h"
#include "sync/addrwait.h"
#include "base/gconfig.h"

#define WAITERS 0x40000000

int pthread_spin_init(pthread_spinlock_t *s, int shared)
{
	*s = 0;
	return 0;
}

int pthread_spin_destroy(pthread_spinlock_t *s)
{
	return *s ? EBUSY : 0;
}

int pthread_spin_trylock(pthread_spinlock_t *s)
{
	int r;
	GREEN_ENTER();
	r = *s ? EBUSY : (*s = green_self_tid(), 0);
	if (r) green_explore_spin();
	GREEN_LEAVE();
	return r;
}

int pthread_spin_lock(pthread_spinlock_t *s)
{
	int me = green_self_tid();

	if ((*s & ~WAITERS) == me) return EDEADLK;
	__green_word_lock(s, me, WAITERS);
	return 0;
}

int pthread_spin_unlock(pthread_spinlock_t *s)
{
	__green_word_unlock(s, WAITERS);
	return 0;
}
