/* check_rwlock.c — Check suite: read-write locks. */
#include <errno.h>
#include <sched.h>
#include "testutil.h"

#define LOAD(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
#define INC(p) __atomic_add_fetch((p), 1, __ATOMIC_SEQ_CST)
#define DEC(p) __atomic_sub_fetch((p), 1, __ATOMIC_SEQ_CST)

/* Wait, yielding, until *f becomes non-zero. */
static void await(int *f)
{
	while (!LOAD(f)) sched_yield();
}

static pthread_rwlock_t rw;
static pthread_barrier_t bar;
static int inside, flag;

/* ---- many readers at once */

#define NREADERS 5

static void *hold_read(void *arg)
{
	ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
	INC(&inside);
	pthread_barrier_wait(&bar);     /* everybody holds a read lock here */
	pthread_barrier_wait(&bar);     /* main has checked */
	DEC(&inside);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	return 0;
}

/* All readers hold the lock together: they meet at a barrier while
 * holding it, which could not complete if one excluded another; a writer
 * is refused meanwhile. */
START_TEST(readers_share)
{
	pthread_t t[NREADERS];
	int i;

	pthread_rwlock_init(&rw, 0);
	pthread_barrier_init(&bar, 0, NREADERS + 1);
	inside = 0;
	ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
	for (i = 0; i < NREADERS; i++) SPAWN(&t[i], hold_read, 0);
	pthread_barrier_wait(&bar);
	ck_assert_int_eq(LOAD(&inside), NREADERS);
	ck_assert_int_eq(pthread_rwlock_trywrlock(&rw), EBUSY);
	pthread_barrier_wait(&bar);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	for (i = 0; i < NREADERS; i++) JOIN(t[i], 0);
	ck_assert_int_eq(pthread_rwlock_trywrlock(&rw), 0);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	pthread_barrier_destroy(&bar);
	ck_assert_int_eq(pthread_rwlock_destroy(&rw), 0);
}
END_TEST

/* ---- a writer excludes readers and writers */

static void *try_while_written(void *arg)
{
	struct timespec at;
	uint64_t t0;

	ck_assert_int_eq(pthread_rwlock_tryrdlock(&rw), EBUSY);
	ck_assert_int_eq(pthread_rwlock_trywrlock(&rw), EBUSY);
	t0 = now_ns();
	at = abs_in_ms(50);
	ck_assert_int_eq(pthread_rwlock_timedrdlock(&rw, &at), ETIMEDOUT);
	at = abs_in_ms(50);
	ck_assert_int_eq(pthread_rwlock_timedwrlock(&rw, &at), ETIMEDOUT);
	ck_assert_slept(t0, 80000000u);
	return 0;
}

static void *read_after_writer(void *arg)
{
	ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
	ck_assert_int_eq(LOAD(&inside), 0);   /* the writer has left */
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	return 0;
}

static void *write_after_writer(void *arg)
{
	ck_assert_int_eq(pthread_rwlock_wrlock(&rw), 0);
	ck_assert_int_eq(LOAD(&inside), 0);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	return 0;
}

/* While one thread holds the write lock, other threads' try and timed
 * locks of both kinds fail, and blocking ones get in only after it left. */
START_TEST(writer_excludes)
{
	pthread_t a, r, w;
	struct timespec ts = { 0, 20000000 };

	pthread_rwlock_init(&rw, 0);
	ck_assert_int_eq(pthread_rwlock_wrlock(&rw), 0);
	STORE(&inside, 1);
	SPAWN(&a, try_while_written, 0);
	JOIN(a, 0);
	SPAWN(&r, read_after_writer, 0);
	SPAWN(&w, write_after_writer, 0);
	nanosleep(&ts, 0);   /* lets them block; they are correct either way */
	STORE(&inside, 0);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	JOIN(r, 0);
	JOIN(w, 0);
	ck_assert_int_eq(pthread_rwlock_destroy(&rw), 0);
}
END_TEST

/* ---- try and timed write locks against readers */

static void *try_write(void *arg)
{
	return (void *)(intptr_t)pthread_rwlock_trywrlock(&rw);
}

static void *timed_write(void *arg)
{
	uint64_t t0 = now_ns();
	struct timespec at = abs_in_ms(50);
	int r = pthread_rwlock_timedwrlock(&rw, &at);
	ck_assert_slept(t0, 40000000u);
	return (void *)(intptr_t)r;
}

/* trywrlock is EBUSY and timedwrlock ETIMEDOUT while a read lock is held. */
START_TEST(write_refused_while_read)
{
	pthread_t t;
	void *res;

	pthread_rwlock_init(&rw, 0);
	ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
	SPAWN(&t, try_write, 0);
	JOIN(t, &res);
	ck_assert_int_eq((intptr_t)res, EBUSY);
	SPAWN(&t, timed_write, 0);
	JOIN(t, &res);
	ck_assert_int_eq((intptr_t)res, ETIMEDOUT);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	ck_assert_int_eq(pthread_rwlock_trywrlock(&rw), 0);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
}
END_TEST

static void *try_read(void *arg)
{
	int r = pthread_rwlock_tryrdlock(&rw);
	if (!r) ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	return (void *)(intptr_t)r;
}

/* tryrdlock by another thread is EBUSY while the write lock is held. */
START_TEST(read_refused_while_written)
{
	pthread_t t;
	void *res;

	pthread_rwlock_init(&rw, 0);
	ck_assert_int_eq(pthread_rwlock_wrlock(&rw), 0);
	SPAWN(&t, try_read, 0);
	JOIN(t, &res);
	ck_assert_int_eq((intptr_t)res, EBUSY);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	SPAWN(&t, try_read, 0);
	JOIN(t, &res);
	ck_assert_int_eq((intptr_t)res, 0);
	ck_assert_int_eq(pthread_rwlock_destroy(&rw), 0);
}
END_TEST

/* ---- a writer that times out must not hold readers back */

static void *timed_write_long(void *arg)
{
	struct timespec at = abs_in_ms(100);
	STORE(&flag, 1);
	return (void *)(intptr_t)pthread_rwlock_timedwrlock(&rw, &at);
}

static void *read_blocking(void *arg)
{
	ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	return 0;
}

/* A reader that queued behind a waiting writer gets the lock once that
 * writer gives up, while the first reader still holds it. */
START_TEST(timed_out_writer_releases_readers)
{
	pthread_t w, r;
	void *res;

	pthread_rwlock_init(&rw, 0);
	flag = 0;
	ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
	SPAWN(&w, timed_write_long, 0);
	await(&flag);
	SPAWN(&r, read_blocking, 0);
	JOIN(r, 0);
	JOIN(w, &res);
	ck_assert_int_eq((intptr_t)res, ETIMEDOUT);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
}
END_TEST

/* ---- writers are not starved */

#define NCYCLERS 3
#define CYCLE_LIMIT 2000000
static int stop, writer_in, cyclers_running;

static void *cycle_reads(void *arg)
{
	int n = 0;
	INC(&cyclers_running);
	while (!LOAD(&stop) && n++ < CYCLE_LIMIT) {
		ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
		sched_yield();
		ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	}
	return (void *)(intptr_t)LOAD(&stop);
}

static void *write_once(void *arg)
{
	ck_assert_int_eq(pthread_rwlock_wrlock(&rw), 0);
	STORE(&writer_in, 1);
	STORE(&stop, 1);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	return 0;
}

/* Readers take turns so that some reader always holds the lock; a writer
 * still gets in while they keep going (green: readers arriving while it
 * waits queue behind it).  1:1 mode only asks that it gets in at all. */
START_TEST(writer_not_starved)
{
	pthread_t r[NCYCLERS], w;
	void *res;
	int i, stopped = 0;

	pthread_rwlock_init(&rw, 0);
	stop = writer_in = cyclers_running = 0;
	for (i = 0; i < NCYCLERS; i++) SPAWN(&r[i], cycle_reads, 0);
	while (LOAD(&cyclers_running) < NCYCLERS) sched_yield();
	SPAWN(&w, write_once, 0);
	JOIN(w, 0);
	ck_assert_int_eq(writer_in, 1);
	for (i = 0; i < NCYCLERS; i++) {
		JOIN(r[i], &res);
		stopped += res != 0;
	}
	if (GREEN_MODE) ck_assert_int_eq(stopped, NCYCLERS);
	ck_assert_int_eq(pthread_rwlock_destroy(&rw), 0);
}
END_TEST

/* ---- green policy details */

static int order[3], norder;

static void *ordered_write(void *arg)
{
	ck_assert_int_eq(pthread_rwlock_wrlock(&rw), 0);
	order[norder++] = 'W';
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	return 0;
}

static void *ordered_read(void *arg)
{
	/* a writer waits: a new reader may not barge in */
	ck_assert_int_eq(pthread_rwlock_tryrdlock(&rw), EBUSY);
	ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
	order[norder++] = 'R';
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	return 0;
}

/* Green: while a writer waits for readers to leave, a newly arriving
 * reader queues behind it and gets in after it. */
START_TEST(new_reader_queues_behind_writer)
{
	pthread_t w, r;

	pthread_rwlock_init(&rw, 0);
	norder = 0;
	ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
	w = spawn_prio(ordered_write, SCHED_FIFO, 2, 0);   /* runs and blocks */
	r = spawn_prio(ordered_read, SCHED_FIFO, 2, 0);    /* runs and blocks */
	ck_assert_int_eq(norder, 0);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	JOIN(w, 0);
	JOIN(r, 0);
	ck_assert_int_eq(norder, 2);
	ck_assert_int_eq(order[0], 'W');
	ck_assert_int_eq(order[1], 'R');
}
END_TEST

/* Green: a thread that already holds a read lock may take another even
 * with a writer waiting, so recursive read locking cannot deadlock. */
START_TEST(recursive_read_with_writer_waiting)
{
	pthread_t w;

	pthread_rwlock_init(&rw, 0);
	norder = 0;
	ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
	w = spawn_prio(ordered_write, SCHED_FIFO, 2, 0);   /* runs and blocks */
	ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
	ck_assert_int_eq(pthread_rwlock_tryrdlock(&rw), 0);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	ck_assert_int_eq(norder, 0);    /* one read lock still held */
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	JOIN(w, 0);
	ck_assert_int_eq(norder, 1);
}
END_TEST

/* ---- destroy */

static void init_kind(int pshared)
{
	pthread_rwlockattr_t a;
	pthread_rwlockattr_init(&a);
	if (pshared) pthread_rwlockattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	ck_assert_int_eq(pthread_rwlock_init(&rw, &a), 0);
	pthread_rwlockattr_destroy(&a);
}

static void *lock_and_exit(void *arg)
{
	int r = arg ? pthread_rwlock_wrlock(&rw) : pthread_rwlock_rdlock(&rw);
	return (void *)(intptr_t)r;
}

/* A lock still held by a thread that has exited is destroyed (0), as
 * glibc and musl do; POSIX leaves it undefined.  Read and write locks,
 * process-private and -shared (_i). */
START_TEST(destroy_held_by_exited)
{
	pthread_t t;
	void *res;
	for (intptr_t wr = 0; wr < 2; wr++) {
		init_kind(_i);
		SPAWN(&t, lock_and_exit, (void *)wr);
		JOIN(t, &res);
		ck_assert_int_eq((intptr_t)res, 0);
		ck_assert_int_eq(pthread_rwlock_destroy(&rw), 0);
	}
}
END_TEST

static void *read_flagged(void *arg)
{
	STORE(&flag, 1);
	ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	return 0;
}

/* Green: while a thread waits for the lock, destroy says EBUSY, as for a
 * condition or a barrier; once nobody waits, 0. */
START_TEST(destroy_with_waiter)
{
	pthread_t t;
	init_kind(_i);
	flag = 0;
	ck_assert_int_eq(pthread_rwlock_wrlock(&rw), 0);
	SPAWN(&t, read_flagged, 0);
	await(&flag);
	for (int i = 0; i < 100; i++) sched_yield();   /* t blocks in rdlock (any schedule) */
	ck_assert_int_eq(pthread_rwlock_destroy(&rw), EBUSY);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	JOIN(t, 0);
	ck_assert_int_eq(pthread_rwlock_destroy(&rw), 0);
}
END_TEST

/* Green: a process-shared lock's waiter re-checks the lock word every few
 * milliseconds (pshared.c) and goes round rdlock's loop each time; it is
 * still a waiter all along, so destroy says EBUSY however a tick cuts that
 * loop.  Time sliced, main spins without yielding, so a tick that lands
 * in the reader's loop lets main look at the lock right there; under
 * qemu-m68k at a 50 us quantum, where the reader's loop takes tens of
 * microseconds, that happened in destroy_with_waiter once in ten runs
 * when the reader stopped counting as a waiter between two re-checks. */
START_TEST(destroy_busy_while_shared_reader_rechecks)
{
	pthread_t t;
	struct timespec t0, now;
	long ms = 0;

	init_kind(1);
	flag = 0;
	ck_assert_int_eq(pthread_rwlock_wrlock(&rw), 0);
	SPAWN(&t, read_flagged, 0);
	await(&flag);
	while (pthread_rwlock_destroy(&rw) != EBUSY) sched_yield();   /* t waits */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (ms < 300) {                  /* about 75 re-checks by the reader */
		ck_assert_int_eq(pthread_rwlock_destroy(&rw), EBUSY);
		if (!ticking()) sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
	}
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	JOIN(t, 0);
	ck_assert_int_eq(pthread_rwlock_destroy(&rw), 0);
}
END_TEST

/* Green: relocking for writing by the writer is EDEADLK, not a hang. */
START_TEST(wrlock_twice_edeadlk)
{
	struct timespec at = abs_in_ms(10);

	pthread_rwlock_init(&rw, 0);
	ck_assert_int_eq(pthread_rwlock_wrlock(&rw), 0);
	ck_assert_int_eq(pthread_rwlock_wrlock(&rw), EDEADLK);
	ck_assert_int_eq(pthread_rwlock_timedwrlock(&rw, &at), EDEADLK);
	ck_assert_int_eq(pthread_rwlock_rdlock(&rw), EDEADLK);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	ck_assert_int_eq(pthread_rwlock_destroy(&rw), 0);
}
END_TEST

static void *unlock_foreign(void *arg)
{
	return (void *)(intptr_t)pthread_rwlock_unlock(&rw);
}

/* Green: unlocking a lock the caller does not hold is EPERM. */
START_TEST(unlock_not_held_eperm)
{
	pthread_t t;
	void *res;

	pthread_rwlock_init(&rw, 0);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), EPERM);
	ck_assert_int_eq(pthread_rwlock_wrlock(&rw), 0);
	SPAWN(&t, unlock_foreign, 0);
	JOIN(t, &res);
	ck_assert_int_eq((intptr_t)res, EPERM);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
	SPAWN(&t, unlock_foreign, 0);
	JOIN(t, &res);
	ck_assert_int_eq((intptr_t)res, EPERM);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), EPERM);
	ck_assert_int_eq(pthread_rwlock_destroy(&rw), 0);
}
END_TEST

/* ---- invariant under a mix of readers and writers */

#define NMIX 6
#define MIX_ROUNDS 300
static int readers_in, writers_in;
static long pair[2];

static void *mix(void *arg)
{
	int id = (int)(intptr_t)arg, i;
	for (i = 0; i < MIX_ROUNDS; i++) {
		if ((i + id) % 4 == 0) {
			ck_assert_int_eq(pthread_rwlock_wrlock(&rw), 0);
			ck_assert_int_eq(INC(&writers_in), 1);
			ck_assert_int_eq(LOAD(&readers_in), 0);
			pair[0]++;
			sched_yield();
			pair[1]++;
			ck_assert_int_eq(DEC(&writers_in), 0);
			ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
		} else {
			ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
			INC(&readers_in);
			ck_assert_int_eq(LOAD(&writers_in), 0);
			long a = pair[0];
			sched_yield();
			ck_assert_int_eq(pair[1], a);
			DEC(&readers_in);
			ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
		}
		if (i % 3 == 0) sched_yield();
	}
	return 0;
}

/* Threads mixing read and write locks, yielding inside: never a reader
 * beside a writer, never two writers, no torn update. */
START_TEST(mixed_invariant)
{
	pthread_t t[NMIX];
	long writes = 0;
	int i, j;

	pthread_rwlock_init(&rw, 0);
	readers_in = writers_in = 0;
	pair[0] = pair[1] = 0;
	for (i = 0; i < NMIX; i++) SPAWN(&t[i], mix, (void *)(intptr_t)i);
	for (i = 0; i < NMIX; i++) JOIN(t[i], 0);
	for (i = 0; i < NMIX; i++)
		for (j = 0; j < MIX_ROUNDS; j++) writes += (j + i) % 4 == 0;
	ck_assert_int_eq(pair[0], writes);
	ck_assert_int_eq(pair[1], writes);
	ck_assert_int_eq(pthread_rwlock_destroy(&rw), 0);
}
END_TEST

/* ---- kinds (glibc's pthread_rwlockattr_setkind_np) */

START_TEST(rwlockattr_kind)
{
	pthread_rwlockattr_t a;
	static const int kinds[] = {
		PTHREAD_RWLOCK_PREFER_READER_NP, PTHREAD_RWLOCK_PREFER_WRITER_NP,
		PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP,
	};
	int k;

	ck_assert_int_eq(PTHREAD_RWLOCK_PREFER_READER_NP, 0);
	ck_assert_int_eq(PTHREAD_RWLOCK_PREFER_WRITER_NP, 1);
	ck_assert_int_eq(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP, 2);
	ck_assert_int_eq(PTHREAD_RWLOCK_DEFAULT_NP, PTHREAD_RWLOCK_PREFER_READER_NP);
	ck_assert_int_eq(pthread_rwlockattr_init(&a), 0);
	ck_assert_int_eq(pthread_rwlockattr_getkind_np(&a, &k), 0);
	ck_assert_int_eq(k, PTHREAD_RWLOCK_DEFAULT_NP);
	for (unsigned i = 0; i < sizeof kinds / sizeof *kinds; i++) {
		ck_assert_int_eq(pthread_rwlockattr_setkind_np(&a, kinds[i]), 0);
		ck_assert_int_eq(pthread_rwlockattr_getkind_np(&a, &k), 0);
		ck_assert_int_eq(k, kinds[i]);
		ck_assert_int_eq(pthread_rwlock_init(&rw, &a), 0);
		ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
		ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
		ck_assert_int_eq(pthread_rwlock_destroy(&rw), 0);
	}
	ck_assert_int_eq(pthread_rwlockattr_setkind_np(&a, 3), EINVAL);
	ck_assert_int_eq(pthread_rwlockattr_setkind_np(&a, -1), EINVAL);
	ck_assert_int_eq(pthread_rwlockattr_getkind_np(&a, &k), 0);
	ck_assert_int_eq(k, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlockattr_destroy(&a);
}
END_TEST

static void rw_init_kind(int kind)
{
	pthread_rwlockattr_t a;
	ck_assert_int_eq(pthread_rwlockattr_init(&a), 0);
	ck_assert_int_eq(pthread_rwlockattr_setkind_np(&a, kind), 0);
	ck_assert_int_eq(pthread_rwlock_init(&rw, &a), 0);
	pthread_rwlockattr_destroy(&a);
}

/* Green: with writer preference, a writer leaving hands the lock to the
 * next waiting writer before the waiting readers; with reader
 * preference, a reader gets in beside readers although a writer waits. */
START_TEST(rwlock_kinds_honoured)
{
	pthread_t w, r;
	void *res;

	for (int kind = PTHREAD_RWLOCK_PREFER_WRITER_NP;
	     kind <= PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP; kind++) {
		rw_init_kind(kind);
		norder = 0;
		ck_assert_int_eq(pthread_rwlock_wrlock(&rw), 0);
		r = spawn_prio(ordered_read, SCHED_FIFO, 2, 0);    /* runs and blocks */
		w = spawn_prio(ordered_write, SCHED_FIFO, 2, 0);   /* runs and blocks */
		ck_assert_int_eq(norder, 0);
		ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
		JOIN(w, 0);
		JOIN(r, 0);
		ck_assert_int_eq(norder, 2);
		ck_assert_int_eq(order[0], 'W');
		ck_assert_int_eq(order[1], 'R');
		ck_assert_int_eq(pthread_rwlock_destroy(&rw), 0);
	}

	rw_init_kind(PTHREAD_RWLOCK_PREFER_READER_NP);
	norder = 0;
	ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
	w = spawn_prio(ordered_write, SCHED_FIFO, 2, 0);       /* runs and blocks */
	SPAWN(&r, try_read, 0);
	JOIN(r, &res);
	ck_assert_int_eq((intptr_t)res, 0);     /* got in beside us */
	ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
	JOIN(w, 0);
	ck_assert_int_eq(norder, 1);
	ck_assert_int_eq(pthread_rwlock_destroy(&rw), 0);
}
END_TEST

/* ---- priorities (POSIX, Thread Execution Scheduling) */

static void set_self(int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	ck_assert_int_eq(pthread_setschedparam(pthread_self(), policy, &sp), 0);
}


static void *prio_try_read(void *arg)
{
	flag = pthread_rwlock_tryrdlock(&rw) == 0;
	if (flag) pthread_rwlock_unlock(&rw);
	return 0;
}

/* Green, SCHED_FIFO: while only readers hold the lock, a reader above
 * every waiting writer acquires it; one at or below a waiting writer's
 * priority does not. */
START_TEST(rwlock_reader_above_writer)
{
	static const int reader_prio[2] = { 30, 10 };
	pthread_t w, r;

	for (int i = 0; i < 2; i++) {
		pthread_rwlock_init(&rw, 0);
		norder = 0;
		set_self(SCHED_FIFO, 20);
		ck_assert_int_eq(pthread_rwlock_rdlock(&rw), 0);
		w = spawn_prio(ordered_write, SCHED_FIFO, 10, 0);
		set_self(SCHED_FIFO, 5);        /* w runs and blocks */
		set_self(SCHED_FIFO, 20);
		flag = -1;
		r = spawn_prio(prio_try_read, SCHED_FIFO, reader_prio[i], 0);
		JOIN(r, 0);
		ck_assert_int_eq(flag, reader_prio[i] > 10);
		ck_assert_int_eq(norder, 0);
		ck_assert_int_eq(pthread_rwlock_unlock(&rw), 0);
		JOIN(w, 0);
		ck_assert_int_eq(norder, 1);
		set_self(SCHED_OTHER, 0);
		ck_assert_int_eq(pthread_rwlock_destroy(&rw), 0);
	}
}
END_TEST

Suite *suite_rwlock(void)
{
	Suite *s = suite_create("rwlock");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, readers_share);
	tcase_add_test(tc, writer_excludes);
	tcase_add_test(tc, write_refused_while_read);
	tcase_add_test(tc, read_refused_while_written);
	tcase_add_test(tc, timed_out_writer_releases_readers);
	tcase_add_test(tc, mixed_invariant);
	tcase_add_test(tc, rwlockattr_kind);
	tcase_add_loop_test(tc, destroy_held_by_exited, 0, 2);
	if (GREEN_MODE) {
		/* green's policy; musl's rwlock makes no such promise, and on
		 * kernel threads the readers can hold it for the whole timeout */
		tcase_add_test(tc, writer_not_starved);
		tcase_add_test(tc, new_reader_queues_behind_writer);
		tcase_add_test(tc, recursive_read_with_writer_waiting);
		tcase_add_test(tc, wrlock_twice_edeadlk);
		tcase_add_test(tc, unlock_not_held_eperm);
		tcase_add_loop_test(tc, destroy_with_waiter, 0, 2);
		tcase_add_test(tc, destroy_busy_while_shared_reader_rechecks);
		tcase_add_test(tc, rwlock_kinds_honoured);
		tcase_add_test(tc, rwlock_reader_above_writer);
	}
	suite_add_tcase(s, tc);
	return s;
}
