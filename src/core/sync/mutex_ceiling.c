/*
 * mutex_ceiling.c — the priority ceiling of a PTHREAD_PRIO_PROTECT
 * mutex (mutex.c raises its owner to it).  Both functions give EINVAL
 * for a mutex of another protocol, as POSIX says.
 *
 * pthread_mutex_setprioceiling takes the mutex (waiting for it, and
 * refused with EINVAL like any lock by a caller above the current
 * ceiling), changes the ceiling and unlocks it, so the new ceiling
 * applies from the next lock.  A caller that already holds the mutex
 * (glibc allows it) keeps it, boosted to the new ceiling at once.  A
 * robust mutex whose owner died is changed and left locked by the
 * caller with EOWNERDEAD, as a lock would leave it.
 */
#include <errno.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sync/sync.h"

int pthread_mutex_getprioceiling(const pthread_mutex_t *restrict m, int *restrict ceiling)
{
	const struct gmutex *g = (const struct gmutex *)m;
	if (!(g->type & GM_PROTECT)) return EINVAL;
	*ceiling = gm_ceiling(g->type);
	return 0;
}

static void set(struct gmutex *g, int ceiling, int *old)
{
	if (old) *old = gm_ceiling(g->type);
	g->type = (g->type & ~GM_CEIL_MASK) | (unsigned)ceiling << GM_CEIL_SHIFT;
}

int pthread_mutex_setprioceiling(pthread_mutex_t *restrict m, int ceiling, int *restrict old)
{
	struct gmutex *g = (struct gmutex *)m;
	int r;

	if (!(g->type & GM_PROTECT) || ceiling < 1 || ceiling > 99) return EINVAL;
	if (gm_owner(g) == __green_cur) {
		GREEN_ENTER();
		set(g, ceiling, old);
		__green_mutex_reboost(__green_cur);
		GREEN_LEAVE();
		return 0;
	}
	if ((r = pthread_mutex_lock(m)) && r != EOWNERDEAD) return r;
	set(g, ceiling, old);
	if (r) return r;    /* EOWNERDEAD: the caller holds it, to make consistent */
	pthread_mutex_unlock(m);
	return 0;
}
