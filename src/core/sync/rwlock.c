/*
 * rwlock.c — read-write locks.
 *
 * Policy (docs/sync.md).  The default: no starvation either way.  A new
 * reader waits while a writer holds the lock or waits for it — unless
 * the reader already holds a read lock, so recursive read locks cannot
 * deadlock behind a waiting writer.  When the last reader leaves, the
 * first waiting writer gets the lock; when a writer leaves, every
 * waiting reader gets it at once if any wait, otherwise the next writer.
 * The kinds of pthread_rwlockattr_setkind_np change that: PREFER_READER
 * lets a reader in whenever no writer holds the lock; PREFER_WRITER
 * gives a leaving writer's lock to the next writer first;
 * PREFER_WRITER_NONRECURSIVE also queues a recursive reader behind a
 * waiting writer (which can deadlock it, as in glibc).
 *
 * Priorities (POSIX, Thread Execution Scheduling): a waiting writer
 * holds back only readers of its level or below, so a reader above every
 * waiting writer gets in beside the readers; when the lock comes free,
 * the highest waiter goes first, the kind deciding between a reader and
 * a writer of the same level.  With equal levels (the default) this is
 * exactly the policy above.  Within each queue the higher-priority
 * waiters come first (queue.c).
 *
 * Locks are handed over: a woken thread already holds what it waited for.
 *
 * A process-shared rwlock (struct gprw) keeps all its state in words of
 * its own: the lock word counts readers or says "writer", the writer is
 * named by pid and thread id, and waiters of every process are counted.
 * Waiters join the waiter board (board.c), a writer's slot flagged
 * PRW_SLOT_WRITER.  When the lock comes free, the best waiter (the
 * highest priority, FIFO among equals, in every process) is woken: a
 * writer alone; a reader with every waiting reader above the best
 * waiting writer's level.  There is no hand-off: a woken waiter takes
 * the lock if the word allows it, and waits again, its ticket kept,
 * if a newcomer was first.  A newcomer reader gets in whenever no
 * writer holds the lock (writers can starve under a stream of readers;
 * the kind is kept but not applied).
 */
#include <errno.h>
#include <limits.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "sync/addrwait.h"
#include "sched/runq.h"
#include "base/gconfig.h"
#include "sync/board.h"

struct grw {
	int readers;                  /* read locks held */
	int kind;                     /* PTHREAD_RWLOCK_*_NP + 1, 0 = default */
	struct green_thread *writer;
	struct gq rq, wq;             /* waiting readers, writers */
};

#define K_DEFAULT 0
#define K_READER (PTHREAD_RWLOCK_PREFER_READER_NP + 1)
#define K_WRITER (PTHREAD_RWLOCK_PREFER_WRITER_NP + 1)
#define K_WRITER_NONREC (PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP + 1)
_Static_assert(sizeof(struct grw) <= sizeof(pthread_rwlock_t), "grw fits");

static struct grw *G(pthread_rwlock_t *l) { return (struct grw *)l; }

/* ---- process-shared */

#define K_SHARED 0x100            /* in kind: the lock is a gprw */
#define PRW_WRITER (-1)

struct gprw {
	volatile int lk;              /* readers, or PRW_WRITER */
	int kind;                     /* as grw.kind, K_SHARED set */
	volatile int nwait;           /* waiters in every process */
	volatile int wpid, wid;       /* the writer: pid and thread id */
	volatile int id;              /* the waiters' id on the board */
};
#define PRW_SLOT_WRITER 1
_Static_assert(sizeof(struct gprw) <= sizeof(pthread_rwlock_t), "gprw fits");

static int shared(pthread_rwlock_t *l) { return G(l)->kind & K_SHARED; }
static struct gprw *P(pthread_rwlock_t *l) { return (struct gprw *)l; }

static int pwriter_is_me(struct gprw *p, int pid)
{
	return p->lk == PRW_WRITER && p->wpid == pid && p->wid == (int)__green_cur->id;
}

/* Take the lock if the word allows it: 1, or 0 with the word that
 * refused in *seen (what a wait on the word then waits to change). */
static int ptake(struct gprw *p, int wr, int pid, int *seen)
{
	int v;
	do {
		v = p->lk;
		if (!(wr ? v == 0 : v >= 0 && v < INT_MAX - 1)) {
			*seen = v;
			return 0;
		}
	} while (__sync_val_compare_and_swap(&p->lk, v, wr ? PRW_WRITER : v + 1) != v);
	if (wr) {
		p->wpid = pid;
		p->wid = __green_cur->id;
	} else {
		__green_cur->rdlocks++;
	}
	return 1;
}

/* A waiter counts in nwait from its first wait until it returns, across
 * every re-check of the word in between (pshared.c wakes it at least
 * every few milliseconds to look again): pthread_rwlock_destroy reads
 * nwait, and must not find 0 while a thread is still inside rdlock. */
/* Wait until the lock may be taken: on a slot of the board, or on the
 * lock word without one (it refused as v). */
static int ppark(struct gprw *p, struct gslot *s, int v, uint64_t deadline, unsigned *step)
{
	if (!s) return __green_pshared_wait(&p->lk, v, deadline, GW_RWLOCK, p, step);
	return __green_board_park(s, deadline, GW_RWLOCK, p, step);
}

static int plock(pthread_rwlock_t *l, int wr, clockid_t clk, const struct timespec *at, int try)
{
	struct gprw *p = P(l);
	uint64_t deadline = GREEN_NO_DEADLINE;
	struct gslot *s;
	unsigned step = 0;
	int pid = __green_pshared_pid(), v, r = 0, err, mine, timed = 0;

	if (pwriter_is_me(p, pid)) return EDEADLK;
	if (ptake(p, wr, pid, &v)) return 0;
	if (try) return EBUSY;
	if (at) {
		deadline = __green_deadline(clk, at, &err);
		if (err) return err;
	}
	__sync_fetch_and_add(&p->nwait, 1);
	s = __green_board_join(&p->id, wr ? PRW_SLOT_WRITER : 0);
	for (;;) {
		/* a writer goes after every better waiter, a reader after
		 * the better writers (readers share) */
		mine = !s || (wr ? __green_board_turn(s, 1, 0, 0)
		                 : __green_board_turn(s, 1, PRW_SLOT_WRITER, PRW_SLOT_WRITER));
		if (mine && ptake(p, wr, pid, &v)) break;
		if (timed) {
			r = ETIMEDOUT;   /* the last look, as the unshared lock makes at its deadline */
			break;
		}
		if (s && __green_board_woken(s)) __green_board_rejoin(s);   /* a newcomer was first */
		if (mine && p->lk != v) continue;
		timed = ppark(p, s, v, deadline, &step) == ETIMEDOUT;
	}
	if (s) __green_board_leave(s);
	__sync_fetch_and_sub(&p->nwait, 1);
	return r;
}

/* The lock came free: wake the best waiter, a writer alone, a reader
 * with the readers above every waiting writer; nobody on the board:
 * the waiters on the word. */
static void pwake(struct gprw *p)
{
	int prio, wprio = -1, f = __green_board_best(&p->id, 0, 0, &prio);

	if (f < 0) {
		__green_pshared_wake(&p->lk, INT_MAX, 1);
	} else if (f & PRW_SLOT_WRITER) {
		__green_board_wake(&p->id, 1, 0, 0);
	} else {
		__green_board_best(&p->id, PRW_SLOT_WRITER, PRW_SLOT_WRITER, &wprio);
		__green_board_wake(&p->id, 1, 0, 0);
		__green_board_wake_from(&p->id, PRW_SLOT_WRITER, 0, wprio + 1);
	}
}

static int punlock(pthread_rwlock_t *l)
{
	struct gprw *p = P(l);
	int v;

	if (pwriter_is_me(p, __green_pshared_pid())) {
		p->wpid = p->wid = 0;
		__sync_lock_test_and_set(&p->lk, 0);
		__sync_synchronize();
		if (p->nwait) pwake(p);
		return 0;
	}
	if (!__green_cur->rdlocks) return EPERM;
	do {
		v = p->lk;
		if (v <= 0) return EPERM;
	} while (__sync_val_compare_and_swap(&p->lk, v, v - 1) != v);
	__green_cur->rdlocks--;
	if (v == 1 && p->nwait) pwake(p);
	return 0;
}

/* ---- initialisation */

int pthread_rwlock_init(pthread_rwlock_t *restrict l, const pthread_rwlockattr_t *restrict a)
{
	*l = (pthread_rwlock_t){ 0 };
	if (a) G(l)->kind = green_rwlockattr_kind(a);
	if (a && green_rwlockattr_shared(a)) G(l)->kind |= K_SHARED;
	return 0;
}

/* EBUSY only while a thread waits for the lock, as for a condition or a
 * barrier.  A lock still held, by a thread that has exited say, is
 * destroyed: POSIX leaves that undefined, and glibc and musl allow it. */
int pthread_rwlock_destroy(pthread_rwlock_t *l)
{
	struct grw *g = G(l);
	if (shared(l)) return P(l)->nwait ? EBUSY : 0;
	return !gq_empty(&g->rq) || !gq_empty(&g->wq) ? EBUSY : 0;
}

/* May reader t take the lock beside the readers holding it (no writer
 * holds it)?  writer_first: at equal levels, a waiting writer wins. */
static int reader_may(struct grw *g, struct green_thread *t, int writer_first)
{
	struct green_thread *w = g->wq.head;
	int lr, lw;
	if (!w || g->kind == K_READER) return 1;
	lr = green_level(t);
	lw = green_level(w);
	return lr > lw || (lr == lw && !writer_first);
}

/* inside GREEN_ENTER: wake the waiting readers allowed in */
static int grant_readers(struct grw *g, int writer_first)
{
	struct green_thread *t;
	int n = 0;
	while ((t = g->rq.head) && reader_may(g, t, writer_first)) {
		__gq_remove(t);
		g->readers++;
		t->rdlocks++;
		__green_wake(t, 0);
		n++;
	}
	return n;
}

static void grant_writer(struct grw *g)
{
	struct green_thread *t = __gq_pop(&g->wq);
	g->writer = t;
	if (t) __green_wake(t, 0);
}

/* inside GREEN_ENTER: the lock came free; by_writer: a writer left it */
static void grant(struct grw *g, int by_writer)
{
	int writer_first = g->kind == K_WRITER || g->kind == K_WRITER_NONREC ||
	                   (g->kind == K_DEFAULT && !by_writer);
	if (!grant_readers(g, writer_first)) grant_writer(g);
}


/* Can the caller take the lock at once? */
static int rd_free(struct grw *g)
{
	struct green_thread *self = __green_cur;
	return !g->writer && ((self->rdlocks && g->kind != K_WRITER_NONREC) ||
	                      reader_may(g, self, g->kind != K_READER));
}

static int wr_free(struct grw *g)
{
	return !g->writer && !g->readers;
}

/*
 * The waits below loop: a signal handler run while the caller waits
 * takes it off its queue (deliver.c), and the lock may have been released
 * meanwhile with nobody to hand it to, so every pass looks again before
 * it queues.  A deadline that passed (while a handler ran, say) is no
 * failure if the lock is free now: POSIX says a timed lock that can be
 * taken at once never times out.
 */
static int rdlock(struct grw *g, clockid_t clk, const struct timespec *at, int try)
{
	struct green_thread *self = __green_cur;
	uint64_t deadline;
	int r, err;

	GREEN_ENTER();
	r = g->writer == self ? EDEADLK : try && !rd_free(g) ? EBUSY : 0;
	if (r == EBUSY) green_explore_spin();
	if (!r) {
		deadline = rd_free(g) ? 0 : __green_deadline(clk, at, &err);
		for (r = rd_free(g) ? 0 : err; !r; ) {
			if (rd_free(g)) {
				g->readers++;
				self->rdlocks++;
				break;
			}
			r = __green_wait(&g->rq, GW_RWLOCK, g, deadline);
			if (!r) break;                        /* handed over */
			if (r == EINTR || (r == ETIMEDOUT && rd_free(g))) r = 0;
		}
	}
	GREEN_LEAVE();
	return r;
}

static int wrlock(struct grw *g, clockid_t clk, const struct timespec *at, int try)
{
	struct green_thread *self = __green_cur;
	uint64_t deadline;
	int r, err;

	GREEN_ENTER();
	r = g->writer == self ? EDEADLK : try && !wr_free(g) ? EBUSY : 0;
	if (r == EBUSY) green_explore_spin();
	if (!r) {
		deadline = wr_free(g) ? 0 : __green_deadline(clk, at, &err);
		for (r = wr_free(g) ? 0 : err; !r; ) {
			if (wr_free(g)) {
				g->writer = self;
				break;
			}
			r = __green_wait(&g->wq, GW_RWLOCK, g, deadline);
			if (!r) break;                        /* handed over */
			if (r == EINTR || (r == ETIMEDOUT && wr_free(g))) r = 0;
		}
		/* a writer that gave up may have been all that held readers back */
		if (r && !g->writer) grant_readers(g, g->kind != K_READER);
	}
	GREEN_LEAVE();
	return r;
}

int __pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
	if (shared(l)) return plock(l, 0, CLOCK_REALTIME, 0, 0);
	return rdlock(G(l), CLOCK_REALTIME, 0, 0);
}
int __pthread_rwlock_tryrdlock(pthread_rwlock_t *l)
{
	if (shared(l)) return plock(l, 0, CLOCK_REALTIME, 0, 1);
	return rdlock(G(l), CLOCK_REALTIME, 0, 1);
}
int __pthread_rwlock_timedrdlock(pthread_rwlock_t *restrict l, const struct timespec *restrict at)
{
	if (shared(l)) return plock(l, 0, CLOCK_REALTIME, at, 0);
	return rdlock(G(l), CLOCK_REALTIME, at, 0);
}
int __pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
	if (shared(l)) return plock(l, 1, CLOCK_REALTIME, 0, 0);
	return wrlock(G(l), CLOCK_REALTIME, 0, 0);
}
int __pthread_rwlock_trywrlock(pthread_rwlock_t *l)
{
	if (shared(l)) return plock(l, 1, CLOCK_REALTIME, 0, 1);
	return wrlock(G(l), CLOCK_REALTIME, 0, 1);
}
int __pthread_rwlock_timedwrlock(pthread_rwlock_t *restrict l, const struct timespec *restrict at)
{
	if (shared(l)) return plock(l, 1, CLOCK_REALTIME, at, 0);
	return wrlock(G(l), CLOCK_REALTIME, at, 0);
}

int pthread_rwlock_clockrdlock(pthread_rwlock_t *restrict l, clockid_t clk,
                               const struct timespec *restrict at)
{
	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC) return EINVAL;
	if (shared(l)) return plock(l, 0, clk, at, 0);
	return rdlock(G(l), clk, at, 0);
}

int pthread_rwlock_clockwrlock(pthread_rwlock_t *restrict l, clockid_t clk,
                               const struct timespec *restrict at)
{
	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC) return EINVAL;
	if (shared(l)) return plock(l, 1, clk, at, 0);
	return wrlock(G(l), clk, at, 0);
}

int __pthread_rwlock_unlock(pthread_rwlock_t *l)
{
	struct grw *g = G(l);
	struct green_thread *self = __green_cur;

	if (shared(l)) return punlock(l);
	GREEN_ENTER();
	if (g->writer == self) {
		g->writer = 0;
		grant(g, 1);
	} else if (g->readers && self->rdlocks) {
		self->rdlocks--;
		if (!--g->readers) grant(g, 0);
	} else {
		GREEN_LEAVE();
		return EPERM;
	}
	GREEN_LEAVE();
	return 0;
}

weak_alias(__pthread_rwlock_rdlock, pthread_rwlock_rdlock);
weak_alias(__pthread_rwlock_tryrdlock, pthread_rwlock_tryrdlock);
weak_alias(__pthread_rwlock_timedrdlock, pthread_rwlock_timedrdlock);
weak_alias(__pthread_rwlock_wrlock, pthread_rwlock_wrlock);
weak_alias(__pthread_rwlock_trywrlock, pthread_rwlock_trywrlock);
weak_alias(__pthread_rwlock_timedwrlock, pthread_rwlock_timedwrlock);
weak_alias(__pthread_rwlock_unlock, pthread_rwlock_unlock);
