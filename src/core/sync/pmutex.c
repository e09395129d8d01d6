/*
 * pmutex.c — process-shared mutexes (PTHREAD_PROCESS_SHARED), robust
 * ones included.
 *
 * Layout inside pthread_mutex_t (struct gpmutex, sync.h): the type word
 * at the offset of every mutex's, the recursive count, the lock word,
 * the owning thread's id within its process, and a robust-list link.
 * Nothing points into a process: the lock word is the kernel's robust
 * futex word, so
 *
 *   lock = 0                              free
 *        = pid | PM_WAITERS? | PM_DIED?   held by a thread of process pid
 *        = PM_DIED | PM_WAITERS?          free, its owner died holding it
 *        = PM_NOTREC                      unlocked while inconsistent
 *
 * and the owner is (pid, owner): the process's one kernel thread has the
 * process's pid as its tid, and green thread ids are unique within a
 * process.  PM_WAITERS tells unlock that someone may wait (in any
 * process): it wakes the best waiter on the waiter board (board.c:
 * the highest priority, FIFO among equals, in every process), greenly
 * if the waiter is here, else through the kernel.  There is no
 * hand-off: the woken thread competes for the word with a newcomer (as
 * with glibc); if it loses, it waits again with its old ticket.  A
 * waiter re-checking the word on its own (pshared.c's 1, 2, 4 ms) takes
 * it only when no better waiter is on the board.
 *
 * Robust mutexes (PTHREAD_MUTEX_ROBUST): each process keeps the ones its
 * threads hold on a list registered with set_robust_list, in the format
 * the kernel walks when the (one) kernel thread dies: for every word
 * still holding the dead pid it sets PM_DIED and wakes a waiter.  So a
 * process killed by SIGKILL leaves EOWNERDEAD to the next locker in any
 * process.  list_op_pending covers a death between taking or releasing
 * the word and linking or unlinking it.  A green thread that exits while
 * its process lives is handled here (__green_pmutex_owner_died) the same
 * way.  The link field is valid only in the owner's process, which alone
 * walks it.
 *
 * Priority inheritance (PTHREAD_PRIO_INHERIT), as far as one kernel
 * thread per process allows: the waiters are ordered by priority as
 * every shared mutex's are, and a waiter whose own process holds the
 * mutex lends its level to the owner (boost_owner), which keeps it
 * until it unlocks; then its boost is what its private PI and protect
 * mutexes give it (mutex.c).  A waiter in another process cannot lend
 * a level: the owner's level is its own process's business, and that
 * process's one kernel thread has a kernel priority of its own.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "sync/addrwait.h"
#include "sync/sync.h"
#include "sync/board.h"
#include "sched/runq.h"

_Static_assert(sizeof(struct gpmutex) <= sizeof(pthread_mutex_t), "gpmutex fits");
_Static_assert(offsetof(struct gpmutex, type) == offsetof(struct gmutex, type), "type word shared");
_Static_assert(offsetof(struct gpmutex, count) == offsetof(struct gmutex, count), "count shared");

#define PM_WAITERS 0x80000000u
#define PM_DIED    0x40000000u
#define PM_TID     0x3fffffffu
#define PM_NOTREC  0x3fffffff

static struct {
	void *volatile head;
	long off;
	void *volatile pending;
} rl;
/* 0 not yet, 1 registered with the kernel, -1 refused; an exiting
 * thread looks at its list only when it is not 0 (create.c) */
hidden int __green_pmutex_rl;

static int me(void)
{
	return __green_pshared_pid();
}

/* The robust list of this process: empty, registered once. */
static void rl_init(void)
{
	if (__green_pmutex_rl) return;
	rl.head = (void *)&rl.head;
	rl.off = (long)offsetof(struct gpmutex, lock) - (long)offsetof(struct gpmutex, next);
	rl.pending = 0;
	__green_pmutex_rl = __syscall(SYS_set_robust_list, &rl, sizeof rl) ? -1 : 1;
}

static void rl_del(struct gpmutex *m)
{
	void *volatile *p = &rl.head;
	while (*p != (void *)&m->next && *p != (void *)&rl.head) p = (void *volatile *)*p;
	if (*p == (void *)&m->next) *p = m->next;
}

/* pthread_mutex_init on memory that may hold a robust mutex a thread of
 * this process still holds (destroy said EBUSY, and the program
 * initialises it again): take it off the list first.  Zeroed in place,
 * its link would cut the list short, and its next lock would link it to
 * itself: a cycle.  Only the list's own links are read. */
hidden void __green_pmutex_forget(struct gpmutex *m)
{
	if (!__green_pmutex_rl) return;
	GREEN_ENTER();
	rl_del(m);
	GREEN_LEAVE();
}

/* After fork: the kernel gave the child no robust list, and the parent's
 * entries are not the child's. */
hidden void __green_pmutex_reset(void)
{
	__green_pmutex_rl = 0;
	rl.head = 0;
}

static int owned(struct gpmutex *m)
{
	unsigned v = m->lock;
	return (int)v != PM_NOTREC && (v & PM_TID) == (unsigned)me() && m->owner == (int)__green_cur->id;
}

hidden int __green_pmutex_owned(struct gpmutex *m)
{
	return owned(m);
}

/* One attempt: 0 or EOWNERDEAD (taken), EBUSY, ENOTRECOVERABLE.
 * waited: the caller slept for it, so others may still wait. */
static int take(struct gpmutex *m, int waited)
{
	int robust = m->type & GM_ROBUST;
	unsigned v, nv;
	int r = 0;

	GREEN_ENTER();
	if (robust) {
		rl_init();
		rl.pending = (void *)&m->next;
	}
	for (v = m->lock;;) {
		if ((int)v == PM_NOTREC) { r = ENOTRECOVERABLE; break; }
		if (v & PM_TID) { r = EBUSY; break; }
		nv = (unsigned)me() | (v & (PM_DIED | PM_WAITERS)) | (waited ? PM_WAITERS : 0);
		unsigned w = __sync_val_compare_and_swap((volatile unsigned *)&m->lock, v, nv);
		if (w == v) break;
		v = w;
	}
	if (!r) {
		m->owner = __green_cur->id;
		if (robust) {
			m->next = rl.head;
			rl.head = (void *)&m->next;
		}
		if (nv & PM_DIED) r = EOWNERDEAD;
	}
	if (robust) rl.pending = 0;
	GREEN_LEAVE();
	return r;
}

/* Wake n waiters: the best on the board, or else on the word. */
static void wake(struct gpmutex *m, int n)
{
	int k = __green_board_wake(&m->id, n, 0, 0);
	if (k < n) __green_pshared_wake(&m->lock, n - k, 1);
}

/* Give the word up: free, or not recoverable; wake whoever may wait. */
static void release(struct gpmutex *m, int notrec)
{
	int robust = m->type & GM_ROBUST;
	unsigned old;

	GREEN_ENTER();
	if (robust) {
		rl.pending = (void *)&m->next;
		rl_del(m);
	}
	m->owner = 0;
	m->count = 0;
	old = __sync_lock_test_and_set((volatile unsigned *)&m->lock, notrec ? PM_NOTREC : 0);
	__sync_synchronize();
	if (robust) rl.pending = 0;
	GREEN_LEAVE();
	if (notrec) wake(m, INT_MAX);
	else if (old & PM_WAITERS) wake(m, 1);
	if ((m->type & GM_PI) && __green_cur->boost) {
		/* after the wake: a woken waiter above the unboosted owner
		 * runs before one in between */
		GREEN_ENTER();
		__green_mutex_reboost(__green_cur);
		GREEN_LEAVE();
	}
}

/* Wait until the word may be free: on a slot of the board, or on the
 * word itself without one.  0 look again, ETIMEDOUT. */
static int park(struct gpmutex *m, struct gslot *s, unsigned v, uint64_t deadline, unsigned *step)
{
	if (!s) return __green_pshared_wait(&m->lock, v, deadline, GW_ADDR, m, step);
	return __green_board_park(s, deadline, GW_ADDR, m, step);
}

/* A waiter of the owner's own process lends the owner its level. */
static void boost_owner(struct gpmutex *m)
{
	struct green_thread *o, *self = __green_cur;
	int l = green_level(self);

	if (!(m->type & GM_PI) || (m->lock & PM_TID) != (unsigned)me()) return;
	GREEN_ENTER();
	for (o = __green_all; o; o = o->all_next)
		if (o->state != GS_EXITED && o->id == (unsigned)m->owner) break;
	if (o && o != self && green_level(o) < l) {
		o->boost = l;
		green_relevel(o);
		__green_runq_requeue(o, 0);
	}
	GREEN_LEAVE();
}

/* The slow path of a lock: on the board while the word is held, or
 * while a better waiter is there. */
static int contend(struct gpmutex *m, uint64_t deadline)
{
	struct gslot *s = __green_board_join(&m->id, 0);
	unsigned v, step = 0;
	int r, mine, timed = 0;

	for (;;) {
		mine = !s || __green_board_turn(s, 1, 0, 0);
		if (mine && (r = take(m, 1)) != EBUSY) break;
		r = ETIMEDOUT;
		if (timed) break;
		if (s && __green_board_woken(s)) __green_board_rejoin(s);   /* lost it: wait again */
		v = m->lock;
		if (mine) {
			if (!(v & PM_TID) || (int)v == PM_NOTREC) continue;
			if (!(v & PM_WAITERS) &&
			    __sync_val_compare_and_swap((volatile unsigned *)&m->lock, v, v | PM_WAITERS) != v)
				continue;
			v |= PM_WAITERS;
			boost_owner(m);
		}
		if (park(m, s, v, deadline, &step) == ETIMEDOUT)
			timed = 1;     /* one more try: free now is no timeout */
	}
	if (s) __green_board_leave(s);
	return r;
}

hidden int __green_pmutex_lock(struct gpmutex *m, clockid_t clk, const struct timespec *at, int try)
{
	uint64_t deadline = GREEN_NO_DEADLINE;
	int r, err;

	if (owned(m)) {
		switch (m->type & 3) {
		case PTHREAD_MUTEX_RECURSIVE:
			if (m->count == INT_MAX) return EAGAIN;
			m->count++;
			return 0;
		case PTHREAD_MUTEX_ERRORCHECK:
			return try ? EBUSY : EDEADLK;   /* trylock: locked is EBUSY, by us too (POSIX) */
		default:
			if (try) return EBUSY;
			break;    /* NORMAL relocks deadlock, as POSIX says */
		}
	}
	r = take(m, 0);
	if (r != EBUSY || try) return r;
	if (at) {
		deadline = __green_deadline(clk, at, &err);
		if (err) return err;
	}
	return contend(m, deadline);
}

hidden int __green_pmutex_unlock(struct gpmutex *m)
{
	unsigned v = m->lock;

	if (!owned(m)) {
		/* a NORMAL mutex held by another thread is released, as the
		 * private ones are; everything else refuses */
		if ((m->type & (3 | GM_ROBUST)) != PTHREAD_MUTEX_NORMAL || !(v & PM_TID) ||
		    (int)v == PM_NOTREC || (v & PM_TID) != (unsigned)me())
			return EPERM;
	}
	if (m->count) {
		m->count--;
		return 0;
	}
	release(m, (m->type & GM_ROBUST) && (v & PM_DIED));
	return 0;
}

hidden int __green_pmutex_consistent(struct gpmutex *m)
{
	if (!(m->type & GM_ROBUST) || !(m->lock & PM_DIED) || !owned(m)) return EINVAL;
	__sync_fetch_and_and((volatile unsigned *)&m->lock, ~PM_DIED);
	return 0;
}

hidden int __green_pmutex_destroy(struct gpmutex *m)
{
	unsigned v = m->lock;
	return (v & PM_TID) && (int)v != PM_NOTREC ? EBUSY : 0;
}

/* A green thread exits (its process lives on): the robust shared mutexes
 * it holds become owner-dead, as the kernel does for a dead process. */
hidden void __green_pmutex_owner_died(struct green_thread *t)
{
	void *volatile *p;
	struct gpmutex *m;
	unsigned old;

	if (!__green_pmutex_rl) return;
	GREEN_ENTER();
	for (p = &rl.head; *p && *p != (void *)&rl.head; ) {
		m = (struct gpmutex *)((char *)*p - offsetof(struct gpmutex, next));
		if (m->owner != (int)t->id) {
			p = (void *volatile *)*p;
			continue;
		}
		*p = m->next;      /* unlinked: p now names the next entry */
		m->owner = 0;
		m->count = 0;
		old = m->lock;
		while (__sync_val_compare_and_swap((volatile unsigned *)&m->lock, old,
		                                   (old & PM_WAITERS) | PM_DIED) != old)
			old = m->lock;
		wake(m, 1);
	}
	GREEN_LEAVE();
}
