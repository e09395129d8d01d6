/*
 * sync.c — happens-before edges from green's synchronisation objects
 * (docs/race.md).  Each entry point is wrapped (`ld --wrap`, green-cc
 * --race): the real one does the work, the wrapper adds the edge.
 *
 *   mutex, spin lock    unlock releases into the object; a lock (or a
 *                       successful trylock, timed or clocked lock)
 *                       acquires from it
 *   rwlock              a write unlock releases into the object's clock,
 *                       a read unlock into its readers' clock; a read lock
 *                       acquires the first, a write lock both (readers do
 *                       not synchronise with each other)
 *   condition wait      the mutex's unlock and re-lock, as above, whatever
 *                       the wait's outcome; signal and broadcast add no
 *                       edge of their own (the mutex carries it)
 *   semaphore           post releases, a successful wait acquires
 *   barrier             each arrival releases into the clock of its round
 *                       and each departure acquires from it: everything
 *                       before a round's barrier happens before everything
 *                       after it.  Rounds are counted from the count given
 *                       to pthread_barrier_init; two clocks suffice, as
 *                       round r+2 cannot begin before every thread has
 *                       left round r
 *   once                the initialiser's return releases; every
 *                       pthread_once/call_once return acquires
 *
 * A release is made before the real unlock, post or arrival: the thread
 * it lets run may run before the wrapper returns.  The lock that
 * pthread_cond_wait takes back inside the library is seen here as the
 * wrapper's acquire after the wait returns.
 */
#include <pthread.h>
#include <semaphore.h>
#include <threads.h>
#include <time.h>
#include "race.h"

static void acquire(const void *obj)
{
	race_enter();
	__race_acquire(race_self(), obj);
	race_leave();
}

static void release(const void *obj)
{
	race_enter();
	__race_release(race_self(), obj);
	race_leave();
}

static void forget(const void *obj)
{
	race_enter();
	__race_sync_forget(obj);
	race_leave();
}

/* wrapper of a lock-like call: acquire when it returned `ok` */
#define ACQ_WRAP(type, name, params, args, obj, ok) \
	RACE_AFTER(type, name, params, args, ok, acquire(obj))
#define REL_WRAP(type, name, params, args, obj) \
	type __real_##name params; \
	type __wrap_##name params \
	{ \
		release(obj); \
		return __real_##name args; \
	}
#define DESTROY_WRAP(type, name, params, args, obj) \
	RACE_AFTER(type, name, params, args, 0, forget(obj))

/* ---- mutexes */
ACQ_WRAP(int, pthread_mutex_lock, (pthread_mutex_t *m), (m), m, 0)
ACQ_WRAP(int, pthread_mutex_trylock, (pthread_mutex_t *m), (m), m, 0)
ACQ_WRAP(int, pthread_mutex_timedlock, (pthread_mutex_t *restrict m, const struct timespec *restrict ts), (m, ts), m, 0)
ACQ_WRAP(int, pthread_mutex_clocklock, (pthread_mutex_t *restrict m, clockid_t c, const struct timespec *restrict ts), (m, c, ts), m, 0)
REL_WRAP(int, pthread_mutex_unlock, (pthread_mutex_t *m), (m), m)
DESTROY_WRAP(int, pthread_mutex_destroy, (pthread_mutex_t *m), (m), m)

ACQ_WRAP(int, mtx_lock, (mtx_t *m), (m), m, thrd_success)
ACQ_WRAP(int, mtx_trylock, (mtx_t *m), (m), m, thrd_success)
ACQ_WRAP(int, mtx_timedlock, (mtx_t *restrict m, const struct timespec *restrict ts), (m, ts), m, thrd_success)
REL_WRAP(int, mtx_unlock, (mtx_t *m), (m), m)

/* ---- spin locks */
ACQ_WRAP(int, pthread_spin_lock, (pthread_spinlock_t *s), (s), s, 0)
ACQ_WRAP(int, pthread_spin_trylock, (pthread_spinlock_t *s), (s), s, 0)
REL_WRAP(int, pthread_spin_unlock, (pthread_spinlock_t *s), (s), s)
DESTROY_WRAP(int, pthread_spin_destroy, (pthread_spinlock_t *s), (s), s)

/* ---- rwlocks */
static void rd_acquired(pthread_rwlock_t *l)
{
	acquire(l);
}

static void wr_acquired(pthread_rwlock_t *l)
{
	struct race_thread *me;
	struct race_sync *s;
	race_enter();
	me = race_self();
	s = __race_sync(l, 1);
	__race_vc_join(&me->vc, &s->vc);
	__race_vc_join(&me->vc, &s->rvc);
	s->writer = me->tid + 1;
	race_leave();
}

#define RW_WRAP(name, params, args, then) \
	RACE_AFTER(int, name, params, args, 0, then(l))
RW_WRAP(pthread_rwlock_rdlock, (pthread_rwlock_t *l), (l), rd_acquired)
RW_WRAP(pthread_rwlock_tryrdlock, (pthread_rwlock_t *l), (l), rd_acquired)
RW_WRAP(pthread_rwlock_timedrdlock, (pthread_rwlock_t *restrict l, const struct timespec *restrict ts), (l, ts), rd_acquired)
RW_WRAP(pthread_rwlock_clockrdlock, (pthread_rwlock_t *restrict l, clockid_t c, const struct timespec *restrict ts), (l, c, ts), rd_acquired)
RW_WRAP(pthread_rwlock_wrlock, (pthread_rwlock_t *l), (l), wr_acquired)
RW_WRAP(pthread_rwlock_trywrlock, (pthread_rwlock_t *l), (l), wr_acquired)
RW_WRAP(pthread_rwlock_timedwrlock, (pthread_rwlock_t *restrict l, const struct timespec *restrict ts), (l, ts), wr_acquired)
RW_WRAP(pthread_rwlock_clockwrlock, (pthread_rwlock_t *restrict l, clockid_t c, const struct timespec *restrict ts), (l, c, ts), wr_acquired)

int __real_pthread_rwlock_unlock(pthread_rwlock_t *);
int __wrap_pthread_rwlock_unlock(pthread_rwlock_t *l)
{
	struct race_thread *me;
	struct race_sync *s;
	race_enter();
	me = race_self();
	s = __race_sync(l, 1);
	if (s->writer == me->tid + 1) {
		s->writer = 0;
		__race_vc_join(&s->vc, &me->vc);
	} else {
		__race_vc_join(&s->rvc, &me->vc);
	}
	__race_tick(me);
	race_leave();
	return __real_pthread_rwlock_unlock(l);
}
DESTROY_WRAP(int, pthread_rwlock_destroy, (pthread_rwlock_t *l), (l), l)

/* ---- condition variables: the mutex's edges around the wait */
#define COND_WRAP(type, name, params, args) \
	type __real_##name params; \
	type __wrap_##name params \
	{ \
		type r; \
		release(m); \
		r = __real_##name args; \
		acquire(m); \
		return r; \
	}
COND_WRAP(int, pthread_cond_wait, (pthread_cond_t *restrict c, pthread_mutex_t *restrict m), (c, m))
COND_WRAP(int, pthread_cond_timedwait, (pthread_cond_t *restrict c, pthread_mutex_t *restrict m, const struct timespec *restrict ts), (c, m, ts))
COND_WRAP(int, pthread_cond_clockwait, (pthread_cond_t *restrict c, pthread_mutex_t *restrict m, clockid_t k, const struct timespec *restrict ts), (c, m, k, ts))
COND_WRAP(int, cnd_wait, (cnd_t *c, mtx_t *m), (c, m))
COND_WRAP(int, cnd_timedwait, (cnd_t *restrict c, mtx_t *restrict m, const struct timespec *restrict ts), (c, m, ts))

/* ---- semaphores */
REL_WRAP(int, sem_post, (sem_t *s), (s), s)
ACQ_WRAP(int, sem_wait, (sem_t *s), (s), s, 0)
ACQ_WRAP(int, sem_trywait, (sem_t *s), (s), s, 0)
ACQ_WRAP(int, sem_timedwait, (sem_t *restrict s, const struct timespec *restrict ts), (s, ts), s, 0)
ACQ_WRAP(int, sem_clockwait, (sem_t *restrict s, clockid_t c, const struct timespec *restrict ts), (s, c, ts), s, 0)

/* ---- barriers */

static void barrier_init(pthread_barrier_t *b, unsigned n)
{
	struct race_sync *s;
	race_enter();
	s = __race_sync(b, 1);
	s->writer = n;
	s->arrivals = 0;
	s->vc.n = s->rvc.n = 0;
	race_leave();
}

RACE_AFTER(int, pthread_barrier_init, (pthread_barrier_t *restrict b, const pthread_barrierattr_t *restrict a, unsigned n), (b, a, n), 0, barrier_init(b, n))

int __real_pthread_barrier_wait(pthread_barrier_t *);
int __wrap_pthread_barrier_wait(pthread_barrier_t *b)
{
	struct race_thread *me;
	struct race_sync *s;
	uint64_t round;
	int r;
	race_enter();
	me = race_self();
	s = __race_sync(b, 1);
	round = s->writer ? s->arrivals / s->writer : 0;
	if (s->writer && s->arrivals % s->writer == 0) (round & 1 ? &s->rvc : &s->vc)->n = 0;
	s->arrivals++;
	__race_vc_join(round & 1 ? &s->rvc : &s->vc, &me->vc);
	__race_tick(me);
	race_leave();
	r = __real_pthread_barrier_wait(b);
	race_enter();
	me = race_self();
	s = __race_sync(b, 1);
	__race_vc_join(&me->vc, round & 1 ? &s->rvc : &s->vc);
	race_leave();
	return r;
}
DESTROY_WRAP(int, pthread_barrier_destroy, (pthread_barrier_t *b), (b), b)

/* ---- once: the initialiser runs in the calling thread, which records
 * it in its own record (an initialiser may itself call pthread_once) */
static void once_init(void)
{
	struct race_thread *me = race_self();
	void (*fn)(void) = me->once_fn;
	void *obj = me->once_obj;
	fn();
	release(obj);
}

int __real_pthread_once(pthread_once_t *, void (*)(void));
int __wrap_pthread_once(pthread_once_t *o, void (*fn)(void))
{
	struct race_thread *me = race_self();
	void (*sfn)(void) = me->once_fn;
	void *sobj = me->once_obj;
	int r;
	me->once_fn = fn;
	me->once_obj = o;
	r = __real_pthread_once(o, once_init);
	me->once_fn = sfn;
	me->once_obj = sobj;
	if (!r) acquire(o);
	return r;
}

void __real_call_once(once_flag *, void (*)(void));
void __wrap_call_once(once_flag *o, void (*fn)(void))
{
	struct race_thread *me = race_self();
	void (*sfn)(void) = me->once_fn;
	void *sobj = me->once_obj;
	me->once_fn = fn;
	me->once_obj = o;
	__real_call_once(o, once_init);
	me->once_fn = sfn;
	me->once_obj = sobj;
	acquire(o);
}
