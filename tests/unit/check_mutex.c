/*
 * check_mutex.c — Check suite: mutex.
 *
 * The four types and their error returns, trylock and timedlock, mutual
 * exclusion under contention, green's FIFO wake order and its bound on
 * barging (a woken waiter loses the mutex at most once), and the
 * attribute green refuses (process-shared).
 */
#include "testutil.h"
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>

/* ---- helpers */

static pthread_mutex_t *new_mutex(pthread_mutex_t *m, int type)
{
	pthread_mutexattr_t a;
	ck_assert_int_eq(pthread_mutexattr_init(&a), 0);
	ck_assert_int_eq(pthread_mutexattr_settype(&a, type), 0);
	ck_assert_int_eq(pthread_mutex_init(m, &a), 0);
	pthread_mutexattr_destroy(&a);
	return m;
}

/* Run fn(arg) on another thread and return its int result. */
static int on_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	void *r;
	SPAWN(&t, fn, arg);
	JOIN(t, &r);
	return (int)(intptr_t)r;
}

static void *try_lock(void *m)
{
	int r = pthread_mutex_trylock(m);
	if (!r) pthread_mutex_unlock(m);
	return (void *)(intptr_t)r;
}

static void *unlock(void *m)
{
	return (void *)(intptr_t)pthread_mutex_unlock(m);
}

static void wait_for(int *p, int v)
{
	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) < v) sched_yield();
}

/* ---- types */

/* Each type locks and unlocks; while held, another thread's trylock
 * gets EBUSY; once free, another thread can take it. */
START_TEST(types_basic)
{
	static const int types[] = { PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_ERRORCHECK,
	                             PTHREAD_MUTEX_RECURSIVE, PTHREAD_MUTEX_DEFAULT };
	pthread_mutex_t m;
	for (unsigned i = 0; i < sizeof types / sizeof *types; i++) {
		new_mutex(&m, types[i]);
		ck_assert_int_eq(pthread_mutex_lock(&m), 0);
		ck_assert_int_eq(on_thread(try_lock, &m), EBUSY);
		ck_assert_int_eq(pthread_mutex_unlock(&m), 0);
		ck_assert_int_eq(on_thread(try_lock, &m), 0);
		ck_assert_int_eq(pthread_mutex_destroy(&m), 0);
	}
}
END_TEST

/* The static initialiser gives a working mutex; trylock of a held one
 * is EBUSY even for its owner (NORMAL). */
START_TEST(initializer_trylock)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	ck_assert_int_eq(pthread_mutex_trylock(&m), 0);
	ck_assert_int_eq(pthread_mutex_trylock(&m), EBUSY);
	ck_assert_int_eq(on_thread(try_lock, &m), EBUSY);
	ck_assert_int_eq(pthread_mutex_unlock(&m), 0);
	ck_assert_int_eq(pthread_mutex_destroy(&m), 0);
}
END_TEST

/* ERRORCHECK: relock is EDEADLK (trylock: EBUSY, as for any held
 * mutex), unlock by a non-owner or of an unlocked mutex is EPERM. */
START_TEST(errorcheck)
{
	pthread_mutex_t m;
	new_mutex(&m, PTHREAD_MUTEX_ERRORCHECK);
	ck_assert_int_eq(pthread_mutex_unlock(&m), EPERM);
	ck_assert_int_eq(pthread_mutex_lock(&m), 0);
	ck_assert_int_eq(pthread_mutex_lock(&m), EDEADLK);
	ck_assert_int_eq(pthread_mutex_trylock(&m), EBUSY);
	ck_assert_int_eq(on_thread(unlock, &m), EPERM);
	ck_assert_int_eq(pthread_mutex_unlock(&m), 0);
	ck_assert_int_eq(pthread_mutex_unlock(&m), EPERM);
	ck_assert_int_eq(pthread_mutex_destroy(&m), 0);
}
END_TEST

/* RECURSIVE: the owner's locks nest; it stays held (to others) until
 * the last unlock; one unlock more is EPERM. */
START_TEST(recursive_count)
{
	pthread_mutex_t m;
	new_mutex(&m, PTHREAD_MUTEX_RECURSIVE);
	ck_assert_int_eq(pthread_mutex_lock(&m), 0);
	ck_assert_int_eq(pthread_mutex_lock(&m), 0);
	ck_assert_int_eq(pthread_mutex_trylock(&m), 0);
	ck_assert_int_eq(on_thread(unlock, &m), EPERM);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(pthread_mutex_unlock(&m), 0);
		ck_assert_int_eq(on_thread(try_lock, &m), EBUSY);
	}
	ck_assert_int_eq(pthread_mutex_unlock(&m), 0);
	ck_assert_int_eq(on_thread(try_lock, &m), 0);
	ck_assert_int_eq(pthread_mutex_unlock(&m), EPERM);
	ck_assert_int_eq(pthread_mutex_destroy(&m), 0);
}
END_TEST

/* ---- timedlock */

struct timed {
	pthread_mutex_t *m;
	int timeout_r, elapsed_ok, bad_r, ok_r;
	int stage;
};

static void *timed_body(void *arg)
{
	struct timed *p = arg;
	uint64_t t0 = now_ns();             /* before the deadline is taken */
	struct timespec at = abs_in_ms(50);
	p->timeout_r = pthread_mutex_timedlock(p->m, &at);
	p->elapsed_ok = explored() || now_ns() - t0 >= 50000000u;
	at.tv_nsec = 2000000000;
	p->bad_r = pthread_mutex_timedlock(p->m, &at);
	__atomic_store_n(&p->stage, 1, __ATOMIC_RELEASE);
	at = abs_in_ms(20000);
	p->ok_r = pthread_mutex_timedlock(p->m, &at);   /* main unlocks */
	if (!p->ok_r) pthread_mutex_unlock(p->m);
	return 0;
}

/* Held by another thread: timedlock times out after at least the
 * timeout, rejects a malformed deadline, and succeeds once released. */
START_TEST(timedlock)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	struct timed p = { .m = &m };
	pthread_t t;
	pthread_mutex_lock(&m);
	SPAWN(&t, timed_body, &p);
	wait_for(&p.stage, 1);
	pthread_mutex_unlock(&m);
	JOIN(t, 0);
	ck_assert_int_eq(p.timeout_r, ETIMEDOUT);
	ck_assert(p.elapsed_ok);
	ck_assert_int_eq(p.bad_r, EINVAL);
	ck_assert_int_eq(p.ok_r, 0);
}
END_TEST

/* Green: destroying a held mutex is refused. */
START_TEST(destroy_locked)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&m);
	ck_assert_int_eq(pthread_mutex_destroy(&m), EBUSY);
	pthread_mutex_unlock(&m);
	ck_assert_int_eq(pthread_mutex_destroy(&m), 0);
}
END_TEST

/* ---- contention */

enum { NT = 8, NINC = 1000 };
static pthread_mutex_t counter_m = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *incrementer(void *arg)
{
	for (int i = 0; i < NINC; i++) {
		pthread_mutex_lock(&counter_m);
		long v = counter;
		sched_yield();          /* invite a racer into the critical section */
		counter = v + 1;
		pthread_mutex_unlock(&counter_m);
	}
	return 0;
}

/* N threads x M read-yield-write increments: none is lost. */
START_TEST(mutual_exclusion)
{
	pthread_t t[NT];
	counter = 0;
	for (int i = 0; i < NT; i++) SPAWN(&t[i], incrementer, 0);
	for (int i = 0; i < NT; i++) JOIN(t[i], 0);
	ck_assert_int_eq(counter, NT * NINC);
}
END_TEST

/* ---- FIFO wake order (green) */

enum { NQ = 6 };
static pthread_mutex_t fifo_m = PTHREAD_MUTEX_INITIALIZER;
static int fifo_arrived, fifo_ticket[NQ], fifo_order[NQ], fifo_n;

static void *fifo_body(void *arg)
{
	int id = (int)(intptr_t)arg;
	for (int i = 0; i < NQ - id; i++) sched_yield();   /* queue in reverse */
	fifo_ticket[id] = fifo_arrived++;
	pthread_mutex_lock(&fifo_m);
	fifo_order[fifo_n++] = id;
	pthread_mutex_unlock(&fifo_m);
	return 0;
}

/* Threads that queue on a held mutex acquire it in the order they
 * queued (not the order they were created). */
START_TEST(fifo_wake_order)
{
	pthread_t t[NQ];
	fifo_arrived = fifo_n = 0;
	pthread_mutex_lock(&fifo_m);
	for (intptr_t i = 0; i < NQ; i++) SPAWN(&t[i], fifo_body, (void *)i);
	wait_for(&fifo_arrived, NQ);   /* the last arrival queued without yielding */
	pthread_mutex_unlock(&fifo_m);
	for (int i = 0; i < NQ; i++) JOIN(t[i], 0);
	ck_assert_int_eq(fifo_n, NQ);
	for (int k = 0; k < NQ; k++)
		ck_assert_int_eq(fifo_ticket[fifo_order[k]], k);
	ck_assert_int_eq(fifo_order[0], NQ - 1);   /* the reverse of creation */
}
END_TEST

/* ---- unlock wakes a waiter, it does not hand the mutex over (green) */

static pthread_mutex_t wm = PTHREAD_MUTEX_INITIALIZER;
static int w_arrived, w_got;

static void *w_waiter(void *arg)
{
	__atomic_add_fetch(&w_arrived, 1, __ATOMIC_ACQ_REL);
	pthread_mutex_lock(&wm);
	__atomic_add_fetch(&w_got, 1, __ATOMIC_ACQ_REL);
	pthread_mutex_unlock(&wm);
	return arg;
}

/* The thread that unlocks a mutex another thread waits for may take it
 * straight back: the unlock wakes the waiter to compete for it, and on
 * one CPU the waiter runs only when the run queue reaches it; a mutex
 * handed to it would stay held all that time by a thread that has not
 * run (a lock convoy, docs/servers.md).  But a waiter loses at most one
 * such race: it then waits first in line, and the next unlock hands the
 * mutex to it.  Cooperative, so each step is where the comments say. */
START_TEST(unlock_wakes_then_hands_over)
{
	pthread_t t;

	w_arrived = w_got = 0;
	pthread_mutex_lock(&wm);
	SPAWN(&t, w_waiter, 0);
	wait_for(&w_arrived, 1);                            /* t queued on wm */
	pthread_mutex_unlock(&wm);                          /* t woken, wm free */
	ck_assert_int_eq(pthread_mutex_trylock(&wm), 0);    /* taken back at once */
	sched_yield();                     /* t runs, finds wm held: first in line */
	ck_assert_int_eq(__atomic_load_n(&w_got, __ATOMIC_ACQUIRE), 0);
	pthread_mutex_unlock(&wm);                          /* handed to t */
	ck_assert_int_eq(pthread_mutex_trylock(&wm), EBUSY);
	ck_assert_int_eq(pthread_mutex_destroy(&wm), EBUSY);
	JOIN(t, 0);
	ck_assert_int_eq(w_got, 1);
	ck_assert_int_eq(pthread_mutex_destroy(&wm), 0);
}
END_TEST

/* But a waiter of a higher priority than the unlocking thread gets the
 * mutex first: its wake preempts the unlocker at the end of the unlock
 * (runq.h), so it runs and takes the free mutex before the unlocker can
 * take it back. */
START_TEST(higher_priority_waiter_first)
{
	pthread_t t;
	int r;

	w_arrived = w_got = 0;
	pthread_mutex_lock(&wm);
	t = spawn_prio(w_waiter, SCHED_FIFO, 10, 0);       /* runs and queues on wm */
	ck_assert_int_eq(__atomic_load_n(&w_arrived, __ATOMIC_ACQUIRE), 1);
	pthread_mutex_unlock(&wm);
	r = pthread_mutex_trylock(&wm);
	ck_assert_msg(__atomic_load_n(&w_got, __ATOMIC_ACQUIRE) == 1,
	              "the unlocker took the mutex back (trylock %d) before its higher-priority waiter", r);
	if (!r) pthread_mutex_unlock(&wm);
	JOIN(t, 0);
}
END_TEST

/* ---- refused attributes */

/* Robust, priority-inheritance and process-shared mutexes are accepted
 * in both modes (check_posix.c and check_pshared.c test them), and so
 * is a process-shared priority-inheritance one. */
START_TEST(unsupported_attrs)
{
	int want = 0;
	pthread_mutexattr_t a;
	pthread_mutex_t m;

	/* musl asks the kernel for robust-list support; qemu-user lacks it */
	pthread_mutexattr_init(&a);
	if (pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST) == 0) {
		ck_assert_int_eq(pthread_mutex_init(&m, &a), 0);
		pthread_mutex_destroy(&m);
	} else {
		ck_assert(!GREEN_MODE);            /* green needs no kernel support */
	}
	pthread_mutexattr_destroy(&a);

	pthread_mutexattr_init(&a);
	ck_assert_int_eq(pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED), 0);
	ck_assert_int_eq(pthread_mutex_init(&m, &a), 0);
	pthread_mutex_destroy(&m);
	if (pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT) == 0) {
		ck_assert_int_eq(pthread_mutex_init(&m, &a), want);
		if (!want) pthread_mutex_destroy(&m);
	}
	pthread_mutexattr_destroy(&a);

	/* the attribute itself may be refused where the kernel lacks PI */
	pthread_mutexattr_init(&a);
	if (pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT) == 0) {
		ck_assert_int_eq(pthread_mutex_init(&m, &a), 0);
		pthread_mutex_destroy(&m);
	} else {
		ck_assert(!GREEN_MODE);
	}
	pthread_mutexattr_destroy(&a);
}
END_TEST

/* ---- NORMAL relock (green, forked tests only) */

/* A NORMAL mutex relocked by its owner deadlocks; with no other thread
 * able to run, green reports the deadlock and aborts.  Check installs
 * handlers in the parent that the child inherits; drop them, or the
 * detector would wait for a signal that may post to a semaphore. */
START_TEST(normal_relock_deadlocks)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_t t;
	for (int s = 1; s < 32; s++)
		if (s != SIGKILL && s != SIGSTOP) signal(s, SIG_DFL);
	SPAWN(&t, try_lock, &m);   /* start green threads */
	JOIN(t, 0);
	pthread_mutex_lock(&m);
	pthread_mutex_lock(&m);
}
END_TEST

static int forking(void)
{
	const char *f = getenv("CK_FORK");
	return !(f && !strcmp(f, "no"));
}

/* A robust mutex its owner still holds (destroy says EBUSY) and
 * initialises again: relocking it and exiting end, and both it and the
 * owner's other robust mutex are owner-dead after (the owner's list of
 * held mutexes became a cycle, and the relock never returned). */
static pthread_mutex_t rfirst, rm;
static int rdestroyed, rrelocked;

static void init_robust(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;
	ck_assert_int_eq(pthread_mutexattr_init(&a), 0);
	ck_assert_int_eq(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST), 0);
	ck_assert_int_eq(pthread_mutex_init(m, &a), 0);
	pthread_mutexattr_destroy(&a);
}

static void *reinit_held(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&rfirst);
	pthread_mutex_lock(&rm);
	rdestroyed = pthread_mutex_destroy(&rm);
	init_robust(&rm);
	rrelocked = pthread_mutex_lock(&rm);
	return 0;
}

START_TEST(robust_reinit_held_private)
{
	pthread_t t;

	init_robust(&rfirst);
	init_robust(&rm);
	SPAWN(&t, reinit_held, 0);
	JOIN(t, 0);
	ck_assert_int_eq(rdestroyed, EBUSY);
	ck_assert_int_eq(rrelocked, 0);
	ck_assert_int_eq(pthread_mutex_lock(&rm), EOWNERDEAD);
	ck_assert_int_eq(pthread_mutex_lock(&rfirst), EOWNERDEAD);
}
END_TEST

Suite *suite_mutex(void)
{
	Suite *s = suite_create("mutex");
	TCase *tc = tcase_create("mutex");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, types_basic);
	tcase_add_test(tc, initializer_trylock);
	tcase_add_test(tc, errorcheck);
	tcase_add_test(tc, recursive_count);
	tcase_add_test(tc, timedlock);
	tcase_add_test(tc, mutual_exclusion);
	tcase_add_test(tc, unsupported_attrs);
	if (GREEN_MODE) {
		tcase_add_test(tc, destroy_locked);   /* musl: 0 */
		tcase_add_test(tc, robust_reinit_held_private);   /* musl: destroy says 0 */
		/* the exact order needs no preemption between ticket and lock */
		if (cooperative()) tcase_add_test(tc, fifo_wake_order);
		if (cooperative()) tcase_add_test(tc, unlock_wakes_then_hands_over);
		if (cooperative()) tcase_add_test(tc, higher_priority_waiter_first);
		if (forking())
			tcase_add_test_raise_signal(tc, normal_relock_deadlocks, SIGABRT);
	}
	suite_add_tcase(s, tc);
	return s;
}
