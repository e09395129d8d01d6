/*
 * sync.c — the libc's synchronisation objects as the detector sees them:
 * their happens-before edges, and the objects as memory (docs/race.md).
 * Each entry point is wrapped (`ld --wrap`, green-cc --race): the real
 * one does the work, the wrapper adds the edge and the access.
 *
 * Edges:
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
 * Memory, as ThreadSanitizer models it: initialising or destroying an
 * object is a write of its first byte (a condition variable's first 8
 * bytes), and using it a read: an atomic read for a lock, an unlock, a
 * semaphore's post and wait (two threads locking do not race with each
 * other), a plain read for a condition variable's wait, signal and
 * broadcast and a barrier's wait.  A lock reads its object before it
 * acquires the object's clock, so the object's initialisation must be
 * ordered before its use by something other than the object itself; a
 * barrier's wait reads it after the arrival's release, so a thread that
 * destroys the barrier as it leaves races with one still leaving it.
 * The accesses' stacks start with the entry point (#0 pthread_mutex_lock).
 *
 * The locks a thread holds are kept for reports (lockset.c).
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

#define RET __builtin_return_address(0)

/* The access the entry point fn makes to its object, from the caller at ret. */
static void use(struct race_thread *me, const void *obj, unsigned size, int write, int atomic,
                const void *fn, const void *ret)
{
	uint32_t node, pc;
	if (me->ign[write]) return;
	__race_entry(me, fn, ret, &node, &pc);
	__race_access(me, (uintptr_t)obj, size, write, atomic, node, pc);
}

/* ---- locks: mutexes, spin locks, C11 mutexes, rwlocks */
enum { MODE_MUTEX, MODE_READ, MODE_WRITE };

static void locked(const void *obj, int mode, const void *fn, const void *ret)
{
	struct race_thread *me;
	struct race_sync *s;
	race_enter();
	me = race_self();
	s = __race_sync(obj, 1);
	use(me, obj, 1, 0, 1, fn, ret);
	if (!me->ign_sync) {
		__race_vc_join(&me->vc, &s->vc);
		if (mode == MODE_WRITE) {
			__race_vc_join(&me->vc, &s->rvc);
			s->writer = me->tid + 1;
		}
	}
	__race_locked(me, __race_mutex_of(me, s, fn, ret), mode != MODE_READ);
	race_leave();
}

static void unlocking(const void *obj, int rw, const void *fn, const void *ret)
{
	struct race_thread *me;
	struct race_sync *s;
	race_enter();
	me = race_self();
	s = __race_sync(obj, 1);
	use(me, obj, 1, 0, 1, fn, ret);
	if (!me->ign_sync) {
		if (rw && s->writer != me->tid + 1) {
			__race_vc_join(&s->rvc, &me->vc);   /* a read unlock of an rwlock */
		} else {
			s->writer = 0;
			__race_vc_join(&s->vc, &me->vc);
		}
		__race_tick(me);
	}
	if (s->mid) __race_unlocked(me, s->mid);
	race_leave();
}

/* initialised (a lock: a new incarnation), or destroyed */
static void born(const void *obj, unsigned size, int lock, const void *fn, const void *ret)
{
	struct race_thread *me;
	race_enter();
	me = race_self();
	use(me, obj, size, 1, 0, fn, ret);
	if (lock) __race_mutex_created(me, obj, fn, ret);
	race_leave();
}

static void died(const void *obj, unsigned size, const void *fn, const void *ret)
{
	struct race_thread *me;
	race_enter();
	me = race_self();
	use(me, obj, size, 1, 0, fn, ret);
	__race_mutex_destroyed(obj);
	__race_sync_forget(obj);
	race_leave();
}

static void read_of(const void *obj, unsigned size, int atomic, const void *fn, const void *ret)
{
	struct race_thread *me;
	race_enter();
	me = race_self();
	use(me, obj, size, 0, atomic, fn, ret);
	race_leave();
}

#define LOCK_WRAP(type, name, params, args, obj, ok, mode) \
	type __real_##name params; \
	type __wrap_##name params \
	{ \
		const void *ret_ = RET; \
		type r_ = __real_##name args; \
		if (r_ == (ok)) locked(obj, mode, (const void *)__real_##name, ret_); \
		return r_; \
	}
#define UNLOCK_WRAP(type, name, params, args, obj, rw) \
	type __real_##name params; \
	type __wrap_##name params \
	{ \
		unlocking(obj, rw, (const void *)__real_##name, RET); \
		return __real_##name args; \
	}
#define INIT_WRAP(type, name, params, args, obj, ok, size, lock) \
	type __real_##name params; \
	type __wrap_##name params \
	{ \
		const void *ret_ = RET; \
		type r_ = __real_##name args; \
		if (r_ == (ok)) born(obj, size, lock, (const void *)__real_##name, ret_); \
		return r_; \
	}
#define DESTROY_WRAP(type, name, params, args, obj, size) \
	type __real_##name params; \
	type __wrap_##name params \
	{ \
		const void *ret_ = RET; \
		type r_ = __real_##name args; \
		if (r_ == 0) died(obj, size, (const void *)__real_##name, ret_); \
		return r_; \
	}

/* ---- mutexes */
INIT_WRAP(int, pthread_mutex_init, (pthread_mutex_t *restrict m, const pthread_mutexattr_t *restrict a), (m, a), m, 0, 1, 1)
LOCK_WRAP(int, pthread_mutex_lock, (pthread_mutex_t *m), (m), m, 0, MODE_MUTEX)
LOCK_WRAP(int, pthread_mutex_trylock, (pthread_mutex_t *m), (m), m, 0, MODE_MUTEX)
LOCK_WRAP(int, pthread_mutex_timedlock, (pthread_mutex_t *restrict m, const struct timespec *restrict ts), (m, ts), m, 0, MODE_MUTEX)
LOCK_WRAP(int, pthread_mutex_clocklock, (pthread_mutex_t *restrict m, clockid_t c, const struct timespec *restrict ts), (m, c, ts), m, 0, MODE_MUTEX)
UNLOCK_WRAP(int, pthread_mutex_unlock, (pthread_mutex_t *m), (m), m, 0)
DESTROY_WRAP(int, pthread_mutex_destroy, (pthread_mutex_t *m), (m), m, 1)

INIT_WRAP(int, mtx_init, (mtx_t *m, int type), (m, type), m, thrd_success, 1, 1)
LOCK_WRAP(int, mtx_lock, (mtx_t *m), (m), m, thrd_success, MODE_MUTEX)
LOCK_WRAP(int, mtx_trylock, (mtx_t *m), (m), m, thrd_success, MODE_MUTEX)
LOCK_WRAP(int, mtx_timedlock, (mtx_t *restrict m, const struct timespec *restrict ts), (m, ts), m, thrd_success, MODE_MUTEX)
UNLOCK_WRAP(int, mtx_unlock, (mtx_t *m), (m), m, 0)
void __real_mtx_destroy(mtx_t *);
void __wrap_mtx_destroy(mtx_t *m)
{
	died(m, 1, (const void *)__real_mtx_destroy, RET);
	__real_mtx_destroy(m);
}

/* ---- spin locks */
INIT_WRAP(int, pthread_spin_init, (pthread_spinlock_t *s, int pshared), (s, pshared), s, 0, 1, 1)
LOCK_WRAP(int, pthread_spin_lock, (pthread_spinlock_t *s), (s), s, 0, MODE_MUTEX)
LOCK_WRAP(int, pthread_spin_trylock, (pthread_spinlock_t *s), (s), s, 0, MODE_MUTEX)
UNLOCK_WRAP(int, pthread_spin_unlock, (pthread_spinlock_t *s), (s), s, 0)
DESTROY_WRAP(int, pthread_spin_destroy, (pthread_spinlock_t *s), (s), s, 1)

/* ---- rwlocks */
INIT_WRAP(int, pthread_rwlock_init, (pthread_rwlock_t *restrict l, const pthread_rwlockattr_t *restrict a), (l, a), l, 0, 1, 1)
LOCK_WRAP(int, pthread_rwlock_rdlock, (pthread_rwlock_t *l), (l), l, 0, MODE_READ)
LOCK_WRAP(int, pthread_rwlock_tryrdlock, (pthread_rwlock_t *l), (l), l, 0, MODE_READ)
LOCK_WRAP(int, pthread_rwlock_timedrdlock, (pthread_rwlock_t *restrict l, const struct timespec *restrict ts), (l, ts), l, 0, MODE_READ)
LOCK_WRAP(int, pthread_rwlock_clockrdlock, (pthread_rwlock_t *restrict l, clockid_t c, const struct timespec *restrict ts), (l, c, ts), l, 0, MODE_READ)
LOCK_WRAP(int, pthread_rwlock_wrlock, (pthread_rwlock_t *l), (l), l, 0, MODE_WRITE)
LOCK_WRAP(int, pthread_rwlock_trywrlock, (pthread_rwlock_t *l), (l), l, 0, MODE_WRITE)
LOCK_WRAP(int, pthread_rwlock_timedwrlock, (pthread_rwlock_t *restrict l, const struct timespec *restrict ts), (l, ts), l, 0, MODE_WRITE)
LOCK_WRAP(int, pthread_rwlock_clockwrlock, (pthread_rwlock_t *restrict l, clockid_t c, const struct timespec *restrict ts), (l, c, ts), l, 0, MODE_WRITE)
UNLOCK_WRAP(int, pthread_rwlock_unlock, (pthread_rwlock_t *l), (l), l, 1)
DESTROY_WRAP(int, pthread_rwlock_destroy, (pthread_rwlock_t *l), (l), l, 1)

/* ---- condition variables: the mutex's edges around the wait */
static void cond_waiting(const void *c, const void *m, const void *fn, const void *ret)
{
	read_of(c, 8, 0, fn, ret);
	unlocking(m, 0, fn, ret);
}

#define COND_WAIT_WRAP(type, name, params, args, ok) \
	type __real_##name params; \
	type __wrap_##name params \
	{ \
		const void *ret_ = RET; \
		type r; \
		cond_waiting(c, m, (const void *)__real_##name, ret_); \
		r = __real_##name args; \
		locked(m, MODE_MUTEX, (const void *)__real_##name, ret_); \
		return r; \
	}
COND_WAIT_WRAP(int, pthread_cond_wait, (pthread_cond_t *restrict c, pthread_mutex_t *restrict m), (c, m), 0)
COND_WAIT_WRAP(int, pthread_cond_timedwait, (pthread_cond_t *restrict c, pthread_mutex_t *restrict m, const struct timespec *restrict ts), (c, m, ts), 0)
COND_WAIT_WRAP(int, pthread_cond_clockwait, (pthread_cond_t *restrict c, pthread_mutex_t *restrict m, clockid_t k, const struct timespec *restrict ts), (c, m, k, ts), 0)
COND_WAIT_WRAP(int, cnd_wait, (cnd_t *c, mtx_t *m), (c, m), thrd_success)
COND_WAIT_WRAP(int, cnd_timedwait, (cnd_t *restrict c, mtx_t *restrict m, const struct timespec *restrict ts), (c, m, ts), thrd_success)

#define COND_USE_WRAP(type, name, params, args) \
	type __real_##name params; \
	type __wrap_##name params \
	{ \
		read_of(c, 8, 0, (const void *)__real_##name, RET); \
		return __real_##name args; \
	}
COND_USE_WRAP(int, pthread_cond_signal, (pthread_cond_t *c), (c))
COND_USE_WRAP(int, pthread_cond_broadcast, (pthread_cond_t *c), (c))
COND_USE_WRAP(int, cnd_signal, (cnd_t *c), (c))
COND_USE_WRAP(int, cnd_broadcast, (cnd_t *c), (c))
INIT_WRAP(int, pthread_cond_init, (pthread_cond_t *restrict c, const pthread_condattr_t *restrict a), (c, a), c, 0, 8, 0)
INIT_WRAP(int, cnd_init, (cnd_t *c), (c), c, thrd_success, 8, 0)
DESTROY_WRAP(int, pthread_cond_destroy, (pthread_cond_t *c), (c), c, 8)
void __real_cnd_destroy(cnd_t *);
void __wrap_cnd_destroy(cnd_t *c)
{
	died(c, 8, (const void *)__real_cnd_destroy, RET);
	__real_cnd_destroy(c);
}

/* ---- semaphores */
static void posting(sem_t *s, const void *fn, const void *ret)
{
	struct race_thread *me;
	race_enter();
	me = race_self();
	use(me, s, 1, 0, 1, fn, ret);
	__race_release(me, s);
	race_leave();
}

static void waited(sem_t *s, const void *fn, const void *ret)
{
	struct race_thread *me;
	race_enter();
	me = race_self();
	use(me, s, 1, 0, 1, fn, ret);
	__race_acquire(me, s);
	race_leave();
}

int __real_sem_post(sem_t *);
int __wrap_sem_post(sem_t *s)
{
	posting(s, (const void *)__real_sem_post, RET);
	return __real_sem_post(s);
}
#define SEM_WAIT_WRAP(name, params, args) \
	int __real_##name params; \
	int __wrap_##name params \
	{ \
		const void *ret_ = RET; \
		int r_ = __real_##name args; \
		if (r_ == 0) waited(s, (const void *)__real_##name, ret_); \
		return r_; \
	}
SEM_WAIT_WRAP(sem_wait, (sem_t *s), (s))
SEM_WAIT_WRAP(sem_trywait, (sem_t *s), (s))
SEM_WAIT_WRAP(sem_timedwait, (sem_t *restrict s, const struct timespec *restrict ts), (s, ts))
SEM_WAIT_WRAP(sem_clockwait, (sem_t *restrict s, clockid_t c, const struct timespec *restrict ts), (s, c, ts))
INIT_WRAP(int, sem_init, (sem_t *s, int pshared, unsigned v), (s, pshared, v), s, 0, 1, 0)
DESTROY_WRAP(int, sem_destroy, (sem_t *s), (s), s, 1)

/* ---- barriers */

static void barrier_init(pthread_barrier_t *b, unsigned n, const void *fn, const void *ret)
{
	struct race_thread *me;
	struct race_sync *s;
	race_enter();
	me = race_self();
	use(me, b, 1, 1, 0, fn, ret);
	s = __race_sync(b, 1);
	s->writer = n;
	s->arrivals = 0;
	s->vc.n = s->rvc.n = 0;
	race_leave();
}

int __real_pthread_barrier_init(pthread_barrier_t *restrict, const pthread_barrierattr_t *restrict,
                                unsigned);
int __wrap_pthread_barrier_init(pthread_barrier_t *restrict b,
                                const pthread_barrierattr_t *restrict a, unsigned n)
{
	const void *ret = RET;
	int r = __real_pthread_barrier_init(b, a, n);
	if (!r) barrier_init(b, n, (const void *)__real_pthread_barrier_init, ret);
	return r;
}

int __real_pthread_barrier_wait(pthread_barrier_t *);
int __wrap_pthread_barrier_wait(pthread_barrier_t *b)
{
	const void *ret = RET, *fn = (const void *)__real_pthread_barrier_wait;
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
	if (!me->ign_sync) {
		__race_vc_join(round & 1 ? &s->rvc : &s->vc, &me->vc);
		__race_tick(me);
	}
	use(me, b, 1, 0, 0, fn, ret);
	race_leave();
	r = __real_pthread_barrier_wait(b);
	race_enter();
	me = race_self();
	use(me, b, 1, 0, 0, fn, ret);
	if ((s = __race_sync(b, 0)) && !me->ign_sync)
		__race_vc_join(&me->vc, round & 1 ? &s->rvc : &s->vc);
	race_leave();
	return r;
}
DESTROY_WRAP(int, pthread_barrier_destroy, (pthread_barrier_t *b), (b), b, 1)

/* ---- once: the initialiser runs in the calling thread, which records
 * it in its own record (an initialiser may itself call pthread_once) */
static void acquire(const void *obj)
{
	race_enter();
	__race_acquire(race_self(), obj);
	race_leave();
}

static void once_init(void)
{
	struct race_thread *me = race_self();
	void (*fn)(void) = me->once_fn;
	void *obj = me->once_obj;
	fn();
	race_enter();
	__race_release(race_self(), obj);
	race_leave();
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
