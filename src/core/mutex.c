/*
 * mutex.c — pthread mutexes.
 *
 * Layout inside pthread_mutex_t (all-zero is PTHREAD_MUTEX_INITIALIZER):
 * the attribute word musl's pthread_mutexattr_t carries (type in bits
 * 0-1, robust 4, priority inheritance 8, process-shared 128) stays at
 * musl's offset, so C11 mtx_init and the attribute code keep working.
 *
 * Unlock hands the mutex straight to the first waiter: the waiter wakes
 * owning it and never retries.  FIFO hand-off makes contention fair at
 * the price of one switch per contended hand-off (measured in bench/).
 *
 * Refused with ENOTSUP at pthread_mutex_init, never silently ignored:
 * robust, priority-inheritance and process-shared mutexes (docs/sync.md).
 */
#include <errno.h>
#include "green.h"
#include "sync.h"

_Static_assert(sizeof(struct gmutex) <= sizeof(pthread_mutex_t), "gmutex fits");

int pthread_mutex_init(pthread_mutex_t *restrict m, const pthread_mutexattr_t *restrict a)
{
	struct gmutex *g = (struct gmutex *)m;
	unsigned type = a ? a->__attr : 0;

	if (type & (GM_ROBUST | GM_PI | GM_PSHARED)) return ENOTSUP;
	*m = (pthread_mutex_t){ 0 };
	g->type = type;
	return 0;
}

int pthread_mutex_destroy(pthread_mutex_t *m)
{
	struct gmutex *g = (struct gmutex *)m;
	if (g->owner || !gq_empty(&g->q)) return EBUSY;
	return 0;
}

/* Inside GREEN_ENTER: take a free mutex or queue for it.  Returns 0 when
 * the caller owns it, or the error of the wait (ETIMEDOUT). */
hidden int __green_mutex_acquire(struct gmutex *g, uint64_t deadline)
{
	struct green_thread *self = __green_cur;
	int r;

	if (!g->owner) {
		g->owner = self;
		return 0;
	}
	do {
		r = __green_wait(&g->q, GW_MUTEX, g, deadline);
	} while (r == EINTR || (!r && g->owner != self)); /* a signal: queue again */
	return r;
}

/* Inside GREEN_ENTER: give the mutex to the first waiter, or free it. */
hidden void __green_mutex_release(struct gmutex *g)
{
	struct green_thread *t = __gq_pop(&g->q);
	g->owner = t;
	if (t) __green_wake(t, 0);
}

static int lock(struct gmutex *g, const struct timespec *at, int try)
{
	struct green_thread *self = __green_cur;
	uint64_t deadline = GREEN_NO_DEADLINE;
	int r, err;

	GREEN_ENTER();
	if (!g->owner) {
		g->owner = self;
		GREEN_LEAVE();
		return 0;
	}
	if (g->owner == self && !(try && (g->type & 3) != PTHREAD_MUTEX_RECURSIVE)) {
		switch (g->type & 3) {
		case PTHREAD_MUTEX_RECURSIVE:
			r = g->count == INT_MAX ? EAGAIN : (g->count++, 0);
			GREEN_LEAVE();
			return r;
		case PTHREAD_MUTEX_ERRORCHECK:
			GREEN_LEAVE();
			return EDEADLK;
		default:
			/* NORMAL relocks deadlock as POSIX says; the deadlock
			 * report names it if nothing else can run. */
			break;
		}
	}
	if (try) {
		GREEN_LEAVE();
		return EBUSY;
	}
	if (at) {
		deadline = __green_deadline(CLOCK_REALTIME, at, &err);
		if (err) {
			GREEN_LEAVE();
			return err;
		}
	}
	r = __green_mutex_acquire(g, deadline);
	GREEN_LEAVE();
	return r;
}

int __pthread_mutex_lock(pthread_mutex_t *m)
{
	return lock((struct gmutex *)m, 0, 0);
}

int __pthread_mutex_trylock(pthread_mutex_t *m)
{
	return lock((struct gmutex *)m, 0, 1);
}

int __pthread_mutex_timedlock(pthread_mutex_t *restrict m, const struct timespec *restrict at)
{
	return lock((struct gmutex *)m, at, 0);
}

int __pthread_mutex_unlock(pthread_mutex_t *m)
{
	struct gmutex *g = (struct gmutex *)m;
	struct green_thread *self = __green_cur;

	GREEN_ENTER();
	if (g->owner != self) {
		/* ERRORCHECK and RECURSIVE must refuse; so do we for a NORMAL
		 * mutex nobody holds.  A NORMAL mutex held by another thread
		 * is released, as glibc and musl do (undefined in POSIX). */
		if ((g->type & 3) != PTHREAD_MUTEX_NORMAL || !g->owner) {
			GREEN_LEAVE();
			return EPERM;
		}
	}
	if (g->count) {
		g->count--;
		GREEN_LEAVE();
		return 0;
	}
	__green_mutex_release(g);
	GREEN_LEAVE();
	return 0;
}

weak_alias(__pthread_mutex_lock, pthread_mutex_lock);
weak_alias(__pthread_mutex_trylock, pthread_mutex_trylock);
weak_alias(__pthread_mutex_timedlock, pthread_mutex_timedlock);
weak_alias(__pthread_mutex_unlock, pthread_mutex_unlock);

int pthread_mutex_consistent(pthread_mutex_t *m)
{
	return EINVAL;   /* no robust mutexes (refused at init) */
}
