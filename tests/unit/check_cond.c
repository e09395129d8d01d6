/*
 * check_cond.c — Check suite: cond.
 *
 * Signal and broadcast, timed waits on both clocks with the mutex held
 * again afterwards, a many-producer many-consumer queue, recursive
 * mutexes, and the error returns green adds (EBUSY, EPERM).
 */
#include "testutil.h"
#include <errno.h>
#include <sched.h>

static void wait_for(int *p, int v)
{
	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) < v) sched_yield();
}

/* Wait until n threads are inside pthread_cond_wait on c: each counted
 * itself in *waiting under m just before waiting, and waiting releases
 * m atomically, so once we hold m with *waiting == n they all wait. */
static void wait_waiters(pthread_mutex_t *m, int *waiting, int n)
{
	for (;;) {
		pthread_mutex_lock(m);
		int w = *waiting;
		pthread_mutex_unlock(m);
		if (w >= n) return;
		sched_yield();
	}
}

/* ---- signal and broadcast */

static pthread_mutex_t sb_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sb_c = PTHREAD_COND_INITIALIZER;
static int sb_waiting, sb_tokens, sb_done, sb_wakeups;

static void *token_taker(void *arg)
{
	pthread_mutex_lock(&sb_m);
	sb_waiting++;
	while (!sb_tokens) {
		pthread_cond_wait(&sb_c, &sb_m);
		sb_wakeups++;
	}
	sb_tokens--;
	__atomic_add_fetch(&sb_done, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&sb_m);
	return 0;
}

/* Each signal releases one waiter (green: exactly one wakes). */
START_TEST(signal_wakes_one)
{
	enum { N = 3 };
	pthread_t t[N];
	sb_waiting = sb_tokens = sb_done = sb_wakeups = 0;
	for (int i = 0; i < N; i++) SPAWN(&t[i], token_taker, 0);
	wait_waiters(&sb_m, &sb_waiting, N);
	for (int k = 1; k <= N; k++) {
		pthread_mutex_lock(&sb_m);
		sb_tokens++;
		pthread_cond_signal(&sb_c);
		pthread_mutex_unlock(&sb_m);
		wait_for(&sb_done, k);
		if (GREEN_MODE) {
			for (int y = 0; y < 5; y++) sched_yield();
			ck_assert_int_eq(sb_wakeups, k);   /* no other waiter stirred */
		}
	}
	for (int i = 0; i < N; i++) JOIN(t[i], 0);
	ck_assert_int_eq(sb_done, N);
}
END_TEST

static void *go_waiter(void *arg)
{
	pthread_mutex_lock(&sb_m);
	sb_waiting++;
	while (!sb_tokens) {
		pthread_cond_wait(&sb_c, &sb_m);
		sb_wakeups++;
	}
	sb_done++;
	pthread_mutex_unlock(&sb_m);
	return 0;
}

/* One broadcast wakes every waiter. */
START_TEST(broadcast_wakes_all)
{
	enum { N = 5 };
	pthread_t t[N];
	sb_waiting = sb_tokens = sb_done = sb_wakeups = 0;
	for (int i = 0; i < N; i++) SPAWN(&t[i], go_waiter, 0);
	wait_waiters(&sb_m, &sb_waiting, N);
	pthread_mutex_lock(&sb_m);
	sb_tokens = 1;
	pthread_cond_broadcast(&sb_c);
	pthread_mutex_unlock(&sb_m);
	for (int i = 0; i < N; i++) JOIN(t[i], 0);
	ck_assert_int_eq(sb_done, N);
	if (GREEN_MODE) ck_assert_int_eq(sb_wakeups, N);
}
END_TEST

/* ---- timed waits */

/* Timedwait times out after at least the timeout and returns with the
 * mutex held by the caller (relock refused, unlock accepted once). */
START_TEST(timedwait_timeout)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec at;
	uint64_t t0;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	ck_assert_int_eq(pthread_mutex_init(&m, &a), 0);
	pthread_mutexattr_destroy(&a);

	pthread_mutex_lock(&m);
	t0 = now_ns();
	at = abs_in_ms(50);
	ck_assert_int_eq(pthread_cond_timedwait(&c, &m, &at), ETIMEDOUT);
	ck_assert_slept(t0, 50000000u);
	/* held, and by us: trylock is EBUSY (as for any held mutex), lock
	 * is EDEADLK, and exactly one unlock succeeds */
	ck_assert_int_eq(pthread_mutex_trylock(&m), EBUSY);
	ck_assert_int_eq(pthread_mutex_lock(&m), EDEADLK);
	ck_assert_int_eq(pthread_mutex_unlock(&m), 0);
	ck_assert_int_eq(pthread_mutex_unlock(&m), EPERM);
	pthread_cond_destroy(&c);
	pthread_mutex_destroy(&m);
}
END_TEST

/* A condition set to CLOCK_MONOTONIC takes a monotonic deadline. */
START_TEST(timedwait_monotonic)
{
	pthread_condattr_t ca;
	pthread_cond_t c;
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	clockid_t clk = -1;
	struct timespec at;
	uint64_t t0;

	pthread_condattr_init(&ca);
	ck_assert_int_eq(pthread_condattr_setclock(&ca, CLOCK_MONOTONIC), 0);
	ck_assert_int_eq(pthread_condattr_getclock(&ca, &clk), 0);
	ck_assert_int_eq(clk, CLOCK_MONOTONIC);
	ck_assert_int_eq(pthread_cond_init(&c, &ca), 0);
	pthread_condattr_destroy(&ca);

	pthread_mutex_lock(&m);
	t0 = now_ns();                      /* before the deadline is taken */
	clock_gettime(CLOCK_MONOTONIC, &at);
	at.tv_nsec += 50000000;
	if (at.tv_nsec >= 1000000000) { at.tv_sec++; at.tv_nsec -= 1000000000; }
	/* read as CLOCK_REALTIME this deadline would be decades past */
	ck_assert_int_eq(pthread_cond_timedwait(&c, &m, &at), ETIMEDOUT);
	ck_assert_slept(t0, 50000000u);
	pthread_mutex_unlock(&m);
	pthread_cond_destroy(&c);
}
END_TEST

/* A malformed deadline is EINVAL. */
START_TEST(timedwait_einval)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec at = abs_in_ms(1000);
	at.tv_nsec = 1000000000;
	pthread_mutex_lock(&m);
	ck_assert_int_eq(pthread_cond_timedwait(&c, &m, &at), EINVAL);
	ck_assert_int_eq(pthread_mutex_unlock(&m), 0);
}
END_TEST

/* ---- producers and consumers */

enum { NPROD = 4, NCONS = 4, ITEMS = 10000, QCAP = 16 };
static struct {
	pthread_mutex_t m;
	pthread_cond_t not_full, not_empty;
	int buf[QCAP], head, len;
	unsigned char seen[ITEMS];
	int bad;
} pq = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER };

static void put(int v)
{
	pthread_mutex_lock(&pq.m);
	while (pq.len == QCAP) pthread_cond_wait(&pq.not_full, &pq.m);
	pq.buf[(pq.head + pq.len++) % QCAP] = v;
	pthread_cond_signal(&pq.not_empty);
	pthread_mutex_unlock(&pq.m);
}

static int get(void)
{
	int v;
	pthread_mutex_lock(&pq.m);
	while (!pq.len) pthread_cond_wait(&pq.not_empty, &pq.m);
	v = pq.buf[pq.head];
	pq.head = (pq.head + 1) % QCAP;
	pq.len--;
	pthread_cond_signal(&pq.not_full);
	pthread_mutex_unlock(&pq.m);
	return v;
}

static void *producer(void *arg)
{
	int p = (int)(intptr_t)arg;
	for (int i = p; i < ITEMS; i += NPROD) put(i);
	return 0;
}

static void *consumer(void *arg)
{
	int v;
	while ((v = get()) >= 0) {
		/* atomic: consumers run here concurrently in 1:1 mode */
		if (v >= ITEMS || __atomic_fetch_add(&pq.seen[v], 1, __ATOMIC_RELAXED))
			__atomic_add_fetch(&pq.bad, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

/* 4 producers and 4 consumers move 10000 items through a 16-slot queue;
 * every item arrives exactly once. */
START_TEST(producer_consumer)
{
	pthread_t p[NPROD], c[NCONS];
	memset(pq.seen, 0, sizeof pq.seen);
	pq.head = pq.len = pq.bad = 0;
	for (intptr_t i = 0; i < NCONS; i++) SPAWN(&c[i], consumer, 0);
	for (intptr_t i = 0; i < NPROD; i++) SPAWN(&p[i], producer, (void *)i);
	for (int i = 0; i < NPROD; i++) JOIN(p[i], 0);
	for (int i = 0; i < NCONS; i++) put(-1);   /* one stop mark each */
	for (int i = 0; i < NCONS; i++) JOIN(c[i], 0);
	ck_assert_int_eq(pq.bad, 0);
	for (int i = 0; i < ITEMS; i++) ck_assert_int_eq(pq.seen[i], 1);
	ck_assert_int_eq(pq.len, 0);
}
END_TEST

/* ---- recursive mutexes */

static pthread_mutex_t *new_recursive(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	ck_assert_int_eq(pthread_mutex_init(m, &a), 0);
	pthread_mutexattr_destroy(&a);
	return m;
}

/* A wait on a recursive mutex locked twice leaves it locked twice. */
START_TEST(recursive_timedwait)
{
	pthread_mutex_t m;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec at = abs_in_ms(20);
	new_recursive(&m);
	pthread_mutex_lock(&m);
	pthread_mutex_lock(&m);
	ck_assert_int_eq(pthread_cond_timedwait(&c, &m, &at), ETIMEDOUT);
	ck_assert_int_eq(pthread_mutex_unlock(&m), 0);
	ck_assert_int_eq(pthread_mutex_unlock(&m), 0);
	ck_assert_int_eq(pthread_mutex_unlock(&m), EPERM);
}
END_TEST

struct rec {
	pthread_mutex_t m;
	pthread_cond_t c;
	int waiting, flag;
};

static void *rec_signaller(void *arg)
{
	struct rec *r = arg;
	pthread_mutex_lock(&r->m);        /* possible only if the wait released it */
	r->flag = 1;
	pthread_cond_signal(&r->c);
	pthread_mutex_unlock(&r->m);
	return 0;
}

/* Green: the wait releases all levels of a recursive mutex, so another
 * thread can lock it, and restores the count on return. */
START_TEST(recursive_released)
{
	struct rec r = { .c = PTHREAD_COND_INITIALIZER };
	pthread_t t;
	new_recursive(&r.m);
	pthread_mutex_lock(&r.m);
	pthread_mutex_lock(&r.m);
	SPAWN(&t, rec_signaller, &r);
	while (!r.flag) ck_assert_int_eq(pthread_cond_wait(&r.c, &r.m), 0);
	JOIN(t, 0);
	ck_assert_int_eq(pthread_mutex_unlock(&r.m), 0);
	ck_assert_int_eq(pthread_mutex_unlock(&r.m), 0);
	ck_assert_int_eq(pthread_mutex_unlock(&r.m), EPERM);
}
END_TEST

/* ---- errors green adds */

static void *rec_waiter(void *arg)
{
	struct rec *r = arg;
	pthread_mutex_lock(&r->m);
	r->waiting++;
	while (!r->flag) pthread_cond_wait(&r->c, &r->m);
	pthread_mutex_unlock(&r->m);
	return 0;
}

/* Green: destroying a condition somebody waits on is EBUSY, private
 * or (_i) process-shared, whose waiters are counted in the object. */
START_TEST(destroy_with_waiters)
{
	struct rec r = { PTHREAD_MUTEX_INITIALIZER };
	pthread_condattr_t ca;
	pthread_t t;
	pthread_condattr_init(&ca);
	if (_i) pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	ck_assert_int_eq(pthread_cond_init(&r.c, &ca), 0);
	pthread_condattr_destroy(&ca);
	SPAWN(&t, rec_waiter, &r);
	wait_waiters(&r.m, &r.waiting, 1);
	ck_assert_int_eq(pthread_cond_destroy(&r.c), EBUSY);
	pthread_mutex_lock(&r.m);
	r.flag = 1;
	pthread_cond_signal(&r.c);
	pthread_mutex_unlock(&r.m);
	JOIN(t, 0);
	ck_assert_int_eq(pthread_cond_destroy(&r.c), 0);
}
END_TEST

/* ---- destroying right after a broadcast */

struct bd {
	pthread_mutex_t m;
	pthread_cond_t c;
	int waiting, flag, bad;
};

static void *bd_waiter(void *arg)
{
	struct bd *b = arg;
	struct timespec at = abs_in_ms(60000);
	int r = 0, timed;
	pthread_mutex_lock(&b->m);
	timed = b->waiting++ & 1;
	while (!r && !b->flag)
		r = timed ? pthread_cond_timedwait(&b->c, &b->m, &at) : pthread_cond_wait(&b->c, &b->m);
	if (r) b->bad++;
	pthread_mutex_unlock(&b->m);
	return 0;
}

/* POSIX: once a broadcast has unblocked every waiter, the condition may
 * be destroyed and its memory reused at once, though the woken threads
 * have not run yet.  Green counts the waiters of a process-shared
 * condition, or of a wait with a process-shared mutex, in the object:
 * destroy must neither refuse (EBUSY) nor leave them a count to touch.
 * _i: 0 a shared condition, 1 shared condition and mutex, 2 a shared
 * mutex only. */
START_TEST(destroy_after_broadcast)
{
	enum { N = 4 };
	struct bd b = { .waiting = 0 };
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	pthread_t t[N];

	pthread_mutexattr_init(&ma);
	pthread_condattr_init(&ca);
	if (_i >= 1) pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	if (_i <= 1) pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	ck_assert_int_eq(pthread_mutex_init(&b.m, &ma), 0);
	ck_assert_int_eq(pthread_cond_init(&b.c, &ca), 0);
	pthread_mutexattr_destroy(&ma);
	pthread_condattr_destroy(&ca);
	for (int i = 0; i < N; i++) SPAWN(&t[i], bd_waiter, &b);
	wait_waiters(&b.m, &b.waiting, N);
	pthread_mutex_lock(&b.m);
	b.flag = 1;
	ck_assert_int_eq(pthread_cond_broadcast(&b.c), 0);
	pthread_mutex_unlock(&b.m);
	ck_assert_int_eq(pthread_cond_destroy(&b.c), 0);
	memset(&b.c, 0xff, sizeof b.c);    /* reused: no waiter may look at it now */
	for (int i = 0; i < N; i++) JOIN(t[i], 0);
	ck_assert_int_eq(b.bad, 0);
	ck_assert_int_eq(pthread_mutex_destroy(&b.m), 0);
}
END_TEST

static void *hold(void *arg)
{
	struct rec *r = arg;
	pthread_mutex_lock(&r->m);
	__atomic_store_n(&r->waiting, 1, __ATOMIC_RELEASE);
	wait_for(&r->flag, 1);
	pthread_mutex_unlock(&r->m);
	return 0;
}

/* Green: waiting with a mutex the caller does not hold is EPERM, whether
 * it is free or held by another thread. */
START_TEST(wait_unowned)
{
	struct rec r = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };
	struct timespec at = abs_in_ms(1000);
	pthread_t t;
	ck_assert_int_eq(pthread_cond_wait(&r.c, &r.m), EPERM);
	SPAWN(&t, hold, &r);
	wait_for(&r.waiting, 1);
	ck_assert_int_eq(pthread_cond_wait(&r.c, &r.m), EPERM);
	ck_assert_int_eq(pthread_cond_timedwait(&r.c, &r.m, &at), EPERM);
	__atomic_store_n(&r.flag, 1, __ATOMIC_RELEASE);
	JOIN(t, 0);
}
END_TEST

/* Green: a signal with the mutex free wakes the waiter without giving it
 * the mutex, so the signaller can take the mutex at once instead of
 * waiting for the waiter to run (a lock convoy otherwise: mutex.c).
 * Cooperative, so the waiter is parked in the wait when main signals. */
static pthread_mutex_t fm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fc = PTHREAD_COND_INITIALIZER;
static int f_waiting, f_go, f_done;

static void *f_waiter(void *arg)
{
	pthread_mutex_lock(&fm);
	f_waiting = 1;
	while (!f_go) pthread_cond_wait(&fc, &fm);
	f_done = 1;
	pthread_mutex_unlock(&fm);
	return arg;
}

/* t waits on fc; the caller holds fm, f_go set */
static void f_spawn_waiting(pthread_t *t)
{
	f_waiting = f_go = f_done = 0;
	SPAWN(t, f_waiter, 0);
	wait_for(&f_waiting, 1);                           /* t waits on fc */
	pthread_mutex_lock(&fm);
	f_go = 1;
}

START_TEST(signal_free_mutex_not_handed_over)
{
	pthread_t t;

	f_spawn_waiting(&t);
	pthread_mutex_unlock(&fm);
	ck_assert_int_eq(pthread_cond_signal(&fc), 0);     /* t woken, fm free */
	ck_assert_int_eq(pthread_mutex_trylock(&fm), 0);
	ck_assert_int_eq(f_done, 0);
	pthread_mutex_unlock(&fm);
	JOIN(t, 0);
	ck_assert_int_eq(f_done, 1);
}
END_TEST

/* Green: a signal from the holder of a plain mutex nobody waits for
 * makes its one waiter runnable at once (cond.c), so the unlock that
 * follows has nobody to wake.  If the waiter runs while the signaller
 * still holds the mutex, it waits first in line and the next unlock
 * hands the mutex over; either way its wait returns only once it holds
 * the mutex.  Cooperative, so each step is where the comments say. */
START_TEST(signal_held_mutex_runs_past_holder)
{
	pthread_t t;

	f_spawn_waiting(&t);
	ck_assert_int_eq(pthread_cond_signal(&fc), 0);     /* t runnable */
	pthread_mutex_unlock(&fm);
	ck_assert_int_eq(f_done, 0);
	JOIN(t, 0);                                        /* t finds fm free */
	ck_assert_int_eq(f_done, 1);

	f_spawn_waiting(&t);
	ck_assert_int_eq(pthread_cond_signal(&fc), 0);
	sched_yield();                       /* t runs, finds fm held: first in line */
	ck_assert_int_eq(f_done, 0);
	pthread_mutex_unlock(&fm);                         /* handed to t */
	ck_assert_int_eq(pthread_mutex_trylock(&fm), EBUSY);
	JOIN(t, 0);
	ck_assert_int_eq(f_done, 1);
}
END_TEST

Suite *suite_cond(void)
{
	Suite *s = suite_create("cond");
	TCase *tc = tcase_create("cond");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, signal_wakes_one);
	tcase_add_test(tc, broadcast_wakes_all);
	tcase_add_test(tc, timedwait_timeout);
	tcase_add_test(tc, timedwait_monotonic);
	tcase_add_test(tc, timedwait_einval);
	tcase_add_test(tc, producer_consumer);
	tcase_add_test(tc, recursive_timedwait);
	tcase_add_loop_test(tc, destroy_after_broadcast, 0, 3);
	if (GREEN_MODE) {
		/* musl: a recursive mutex locked twice stays held in the wait,
		 * destroy does not check for waiters, an unowned NORMAL mutex
		 * is not detected */
		tcase_add_test(tc, recursive_released);
		tcase_add_loop_test(tc, destroy_with_waiters, 0, 2);
		tcase_add_test(tc, wait_unowned);
		if (cooperative()) {
			tcase_add_test(tc, signal_free_mutex_not_handed_over);
			tcase_add_test(tc, signal_held_mutex_runs_past_holder);
		}
	}
	suite_add_tcase(s, tc);
	return s;
}
