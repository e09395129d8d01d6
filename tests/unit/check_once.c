/*
 * check_once.c — Check suite: once.
 *
 * pthread_once and C11 call_once: with 16 threads calling at once the
 * initialiser runs exactly once, and no caller returns before it has
 * finished.  In green mode the initialiser yields halfway, so the other
 * callers really arrive while it runs and must wait for it.
 */
#include "testutil.h"
#include <sched.h>
#include <threads.h>

enum { N = 16 };

static int runs, ready, entered, entered_seen_by_init;

static void init(void)
{
	__atomic_add_fetch(&runs, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 5; i++) sched_yield();      /* let the others arrive */
	entered_seen_by_init = __atomic_load_n(&entered, __ATOMIC_ACQUIRE);
	__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
}

static void reset(void)
{
	runs = ready = entered = entered_seen_by_init = 0;
}

/* ---- pthread_once */

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *call_pthread_once(void *arg)
{
	__atomic_add_fetch(&entered, 1, __ATOMIC_RELEASE);
	if (pthread_once(&once, init)) return 0;
	return (void *)(intptr_t)__atomic_load_n(&ready, __ATOMIC_ACQUIRE);
}

/* Each caller returns after the one run of init, having seen its effect. */
static void check_callers(void *(*fn)(void *))
{
	pthread_t t[N];
	void *r;
	for (int i = 0; i < N; i++) SPAWN(&t[i], fn, 0);
	for (int i = 0; i < N; i++) {
		JOIN(t[i], &r);
		ck_assert_int_eq((intptr_t)r, 1);
	}
	ck_assert_int_eq(runs, 1);
	/* green, cooperative: everyone arrived during init's yields and had
	 * to wait (a tick can keep the creator from creating them all by
	 * then) */
	if (GREEN_MODE && cooperative() && !explored()) ck_assert_int_eq(entered_seen_by_init, N);
}

START_TEST(pthread_once_16)
{
	reset();
	once = PTHREAD_ONCE_INIT;
	check_callers(call_pthread_once);
	/* later calls do nothing */
	ck_assert_int_eq(pthread_once(&once, init), 0);
	ck_assert_int_eq(runs, 1);
}
END_TEST

/* ---- call_once (C11) */

static once_flag flag = ONCE_FLAG_INIT;

static void *call_c11_once(void *arg)
{
	__atomic_add_fetch(&entered, 1, __ATOMIC_RELEASE);
	call_once(&flag, init);
	return (void *)(intptr_t)__atomic_load_n(&ready, __ATOMIC_ACQUIRE);
}

START_TEST(call_once_16)
{
	once_flag fresh = ONCE_FLAG_INIT;
	reset();
	flag = fresh;
	check_callers(call_c11_once);
	call_once(&flag, init);
	ck_assert_int_eq(runs, 1);
}
END_TEST

/* ---- independence */

static pthread_once_t once_a = PTHREAD_ONCE_INIT, once_b = PTHREAD_ONCE_INIT;
static int a_runs, b_runs;
static void init_b(void) { b_runs++; }
static void init_a(void)
{
	/* a once inside another once's initialiser: distinct controls */
	pthread_once(&once_b, init_b);
	a_runs++;
}

static void *call_a(void *arg)
{
	pthread_once(&once_a, init_a);
	return 0;
}

/* Distinct controls are independent, even when nested. */
START_TEST(nested_controls)
{
	pthread_t t;
	a_runs = b_runs = 0;
	SPAWN(&t, call_a, 0);
	JOIN(t, 0);
	ck_assert_int_eq(pthread_once(&once_a, init_a), 0);
	ck_assert_int_eq(pthread_once(&once_b, init_b), 0);
	ck_assert_int_eq(a_runs, 1);
	ck_assert_int_eq(b_runs, 1);
}
END_TEST

Suite *suite_once(void)
{
	Suite *s = suite_create("once");
	TCase *tc = tcase_create("once");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, pthread_once_16);
	tcase_add_test(tc, call_once_16);
	tcase_add_test(tc, nested_controls);
	suite_add_tcase(s, tc);
	return s;
}
