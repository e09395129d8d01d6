/*
 * check_tsd.c — Check suite: tsd (thread-specific data).
 *
 * Values are per thread; destructors run at thread exit, again while
 * they set new values, up to PTHREAD_DESTRUCTOR_ITERATIONS; a recycled
 * key starts out null everywhere; PTHREAD_KEYS_MAX keys exist.
 * Every test deletes the keys it creates (the valgrind run is one
 * process for all tests).
 */
#include "testutil.h"
#include <errno.h>
#include <limits.h>
#include <sched.h>

static void wait_for(int *p, int v)
{
	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) < v) sched_yield();
}

/* ---- values */

static pthread_key_t key;

static void *own_value(void *arg)
{
	int ok = pthread_getspecific(key) == 0;
	ok &= pthread_setspecific(key, arg) == 0;
	for (int i = 0; i < 10; i++) {
		sched_yield();
		ok &= pthread_getspecific(key) == arg;
	}
	return (void *)(intptr_t)ok;
}

/* Each thread sees only the value it set; a new thread starts null. */
START_TEST(per_thread_values)
{
	enum { N = 4 };
	int slot[N], mine;
	pthread_t t[N];
	void *ok;
	ck_assert_int_eq(pthread_key_create(&key, 0), 0);
	ck_assert_ptr_null(pthread_getspecific(key));
	ck_assert_int_eq(pthread_setspecific(key, &mine), 0);
	for (int i = 0; i < N; i++) SPAWN(&t[i], own_value, &slot[i]);
	for (int i = 0; i < N; i++) {
		JOIN(t[i], &ok);
		ck_assert_int_eq((intptr_t)ok, 1);
	}
	ck_assert_ptr_eq(pthread_getspecific(key), &mine);
	ck_assert_int_eq(pthread_key_delete(key), 0);
}
END_TEST

/* ---- destructors */

enum { ND = 3 };
static void *dtor_value[ND + 1];
static pthread_t dtor_thread[ND + 1];
static int dtor_calls;

static void record_dtor(void *v)
{
	int k = __atomic_fetch_add(&dtor_calls, 1, __ATOMIC_RELAXED);
	if (k <= ND) {
		dtor_value[k] = v;
		dtor_thread[k] = pthread_self();
	}
}

static int dtor_slots[ND];

static void *set_and_exit(void *arg)
{
	pthread_setspecific(key, arg);
	if (arg == &dtor_slots[ND - 1]) pthread_exit(0);   /* exit path too */
	return 0;
}

static void *set_null(void *arg)
{
	pthread_setspecific(key, 0);
	return 0;
}

/* At exit each thread's destructor runs once, in that thread, with its
 * value; a null value runs no destructor. */
START_TEST(destructors_run)
{
	pthread_t t[ND], z;
	dtor_calls = 0;
	ck_assert_int_eq(pthread_key_create(&key, record_dtor), 0);
	SPAWN(&z, set_null, 0);
	JOIN(z, 0);
	ck_assert_int_eq(dtor_calls, 0);
	for (int i = 0; i < ND; i++) {
		SPAWN(&t[i], set_and_exit, &dtor_slots[i]);
		JOIN(t[i], 0);
		ck_assert_int_eq(dtor_calls, i + 1);
		ck_assert_ptr_eq(dtor_value[i], &dtor_slots[i]);
		ck_assert(pthread_equal(dtor_thread[i], t[i]));
	}
	ck_assert_int_eq(pthread_key_delete(key), 0);
}
END_TEST

static int reset_calls, reset_limit;

static void resetting_dtor(void *v)
{
	if (++reset_calls < reset_limit) pthread_setspecific(key, v);
}

static void *set_value(void *arg)
{
	pthread_setspecific(key, arg);
	return 0;
}

/* A destructor that stores a value again is called again: three times
 * if it re-sets twice; never more than PTHREAD_DESTRUCTOR_ITERATIONS
 * times if it always does. */
START_TEST(destructor_rerun)
{
	pthread_t t;
	ck_assert_int_eq(pthread_key_create(&key, resetting_dtor), 0);

	reset_calls = 0;
	reset_limit = 3;
	SPAWN(&t, set_value, &reset_calls);
	JOIN(t, 0);
	ck_assert_int_eq(reset_calls, 3);

	reset_calls = 0;
	reset_limit = INT_MAX;
	SPAWN(&t, set_value, &reset_calls);
	JOIN(t, 0);
	ck_assert_int_ge(reset_calls, 2);
	ck_assert_int_le(reset_calls, PTHREAD_DESTRUCTOR_ITERATIONS);

	ck_assert_int_eq(pthread_key_delete(key), 0);
}
END_TEST

/* ---- key lifetime */

static int stale_stage, stale_go;

static void *stale_holder(void *arg)
{
	pthread_setspecific(key, arg);
	__atomic_store_n(&stale_stage, 1, __ATOMIC_RELEASE);
	wait_for(&stale_go, 1);
	return pthread_getspecific(key);   /* key is now the recycled key */
}

/* A key deleted while threads hold values, then handed out again, reads
 * null in every thread.  All other keys are taken, so the new key is
 * certainly the deleted one's slot. */
START_TEST(recycled_key_null)
{
	pthread_key_t all[PTHREAD_KEYS_MAX], k;
	int n = 0, mine;
	pthread_t t;
	void *r = &mine;

	stale_stage = stale_go = 0;
	ck_assert_int_eq(pthread_key_create(&key, 0), 0);
	ck_assert_int_eq(pthread_setspecific(key, &mine), 0);
	SPAWN(&t, stale_holder, &n);
	wait_for(&stale_stage, 1);
	while (n < PTHREAD_KEYS_MAX && pthread_key_create(&all[n], 0) == 0) n++;
	ck_assert_int_eq(pthread_key_delete(key), 0);
	ck_assert_int_eq(pthread_key_create(&k, 0), 0);
	ck_assert_uint_eq(k, key);
	ck_assert_ptr_null(pthread_getspecific(k));
	__atomic_store_n(&stale_go, 1, __ATOMIC_RELEASE);
	JOIN(t, &r);
	ck_assert_ptr_null(r);
	for (int i = 0; i < n; i++) ck_assert_int_eq(pthread_key_delete(all[i]), 0);
	ck_assert_int_eq(pthread_key_delete(k), 0);
}
END_TEST

/* PTHREAD_KEYS_MAX keys can be created, then EAGAIN; after deleting
 * them creation works again. */
START_TEST(keys_max)
{
	static pthread_key_t all[PTHREAD_KEYS_MAX + 1];
	int n = 0, r;
	while (n <= PTHREAD_KEYS_MAX && (r = pthread_key_create(&all[n], 0)) == 0) n++;
	ck_assert_int_eq(r, EAGAIN);
	ck_assert_int_eq(n, PTHREAD_KEYS_MAX);
	for (int i = 0; i < n; i++) ck_assert_int_eq(pthread_key_delete(all[i]), 0);
	ck_assert_int_eq(pthread_key_create(&all[0], 0), 0);
	ck_assert_int_eq(pthread_key_delete(all[0]), 0);
}
END_TEST

static void *get_value(void *arg)
{
	return pthread_getspecific(key);
}

/* A key nobody has set reads null, in the creator and in other threads. */
START_TEST(never_set_null)
{
	pthread_t t;
	void *r = &t;
	ck_assert_int_eq(pthread_key_create(&key, 0), 0);
	ck_assert_ptr_null(pthread_getspecific(key));
	SPAWN(&t, get_value, 0);
	JOIN(t, &r);
	ck_assert_ptr_null(r);
	ck_assert_int_eq(pthread_key_delete(key), 0);
}
END_TEST

Suite *suite_tsd(void)
{
	Suite *s = suite_create("tsd");
	TCase *tc = tcase_create("tsd");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, per_thread_values);
	tcase_add_test(tc, destructors_run);
	tcase_add_test(tc, destructor_rerun);
	tcase_add_test(tc, recycled_key_null);
	tcase_add_test(tc, keys_max);
	tcase_add_test(tc, never_set_null);
	suite_add_tcase(s, tc);
	return s;
}
