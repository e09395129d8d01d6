/* check_c11.c — Check suite: C11 <threads.h>. */
#include <threads.h>
#include <sched.h>
#include "testutil.h"

static int add_one(void *arg)
{
	return *(int *)arg + 1;
}

/* thrd_create runs the function; thrd_join hands back its int result. */
START_TEST(create_join_result)
{
	thrd_t t;
	int in = 41, res = 0;

	ck_assert_int_eq(thrd_create(&t, add_one, &in), thrd_success);
	ck_assert_int_eq(thrd_join(t, &res), thrd_success);
	ck_assert_int_eq(res, 42);
	ck_assert_int_eq(thrd_create(&t, add_one, &in), thrd_success);
	ck_assert_int_eq(thrd_join(t, 0), thrd_success);
}
END_TEST

static int exit_early(void *arg)
{
	thrd_exit(7);
	return 0;
}

/* thrd_exit's code is what thrd_join reports. */
START_TEST(thrd_exit_code)
{
	thrd_t t;
	int res = 0;
	ck_assert_int_eq(thrd_create(&t, exit_early, 0), thrd_success);
	ck_assert_int_eq(thrd_join(t, &res), thrd_success);
	ck_assert_int_eq(res, 7);
}
END_TEST

static mtx_t m;
static cnd_t c;
static int flag;

static int set_flag(void *arg)
{
	mtx_lock(&m);
	flag = 1;
	cnd_signal(&c);
	mtx_unlock(&m);
	return 0;
}

/* A detached thread runs to completion on its own. */
START_TEST(detach)
{
	thrd_t t;

	ck_assert_int_eq(mtx_init(&m, mtx_plain), thrd_success);
	ck_assert_int_eq(cnd_init(&c), thrd_success);
	flag = 0;
	ck_assert_int_eq(thrd_create(&t, set_flag, 0), thrd_success);
	ck_assert_int_eq(thrd_detach(t), thrd_success);
	mtx_lock(&m);
	while (!flag) ck_assert_int_eq(cnd_wait(&c, &m), thrd_success);
	mtx_unlock(&m);
	cnd_destroy(&c);
	mtx_destroy(&m);
}
END_TEST

static thrd_t seen;

static int record_self(void *arg)
{
	seen = thrd_current();
	return thrd_equal(thrd_current(), *(thrd_t *)arg) ? 1 : 2;
}

/* thrd_current inside a thread equals the handle thrd_create gave out,
 * and differs from the creator's. */
START_TEST(current_equal)
{
	thrd_t t, me = thrd_current();
	int res;

	ck_assert(thrd_equal(me, thrd_current()));
	ck_assert_int_eq(thrd_create(&t, record_self, &me), thrd_success);
	ck_assert_int_eq(thrd_join(t, &res), thrd_success);
	ck_assert_int_eq(res, 2);
	ck_assert(thrd_equal(seen, t));
	ck_assert(!thrd_equal(seen, me));
}
END_TEST

/* thrd_sleep sleeps at least the requested time and returns 0. */
START_TEST(sleep_yield)
{
	struct timespec d = { 0, 30000000 };
	uint64_t t0 = now_ns();

	ck_assert_int_eq(thrd_sleep(&d, 0), 0);
	ck_assert_slept(t0, 30000000u);
	thrd_yield();
}
END_TEST

static int yields;

static int yielder(void *arg)
{
	int *turn = arg;
	for (int i = 0; i < 5; i++) {
		__atomic_add_fetch(turn, 1, __ATOMIC_SEQ_CST);
		thrd_yield();
	}
	return 0;
}

/* Green: thrd_yield hands the processor to another ready thread. */
START_TEST(yield_switches)
{
	thrd_t t;

	yields = 0;
	ck_assert_int_eq(thrd_create(&t, yielder, &yields), thrd_success);
	ck_assert_int_eq(yields, 0);
	thrd_yield();
	ck_assert_int_eq(yields, 1);
	thrd_yield();
	ck_assert_int_eq(yields, 2);
	ck_assert_int_eq(thrd_join(t, 0), thrd_success);
	ck_assert_int_eq(yields, 5);
}
END_TEST

static int try_lock(void *arg)
{
	return mtx_trylock(arg);
}

static int timed_lock(void *arg)
{
	uint64_t t0 = now_ns();
	struct timespec at = abs_in_ms(50);
	int r = mtx_timedlock(arg, &at);
	ck_assert_slept(t0, 40000000u);
	if (r == thrd_success) mtx_unlock(arg);
	return r;
}

/* Plain mutex: trylock by another thread is thrd_busy while held. */
START_TEST(mtx_plain_busy)
{
	thrd_t t;
	int res;

	ck_assert_int_eq(mtx_init(&m, mtx_plain), thrd_success);
	ck_assert_int_eq(mtx_lock(&m), thrd_success);
	ck_assert_int_eq(thrd_create(&t, try_lock, &m), thrd_success);
	ck_assert_int_eq(thrd_join(t, &res), thrd_success);
	ck_assert_int_eq(res, thrd_busy);
	ck_assert_int_eq(mtx_unlock(&m), thrd_success);
	ck_assert_int_eq(mtx_trylock(&m), thrd_success);
	ck_assert_int_eq(mtx_unlock(&m), thrd_success);
	mtx_destroy(&m);
}
END_TEST

/* Timed mutex: mtx_timedlock by another thread times out while held. */
START_TEST(mtx_timed_timeout)
{
	thrd_t t;
	int res;

	ck_assert_int_eq(mtx_init(&m, mtx_timed), thrd_success);
	ck_assert_int_eq(mtx_lock(&m), thrd_success);
	ck_assert_int_eq(thrd_create(&t, timed_lock, &m), thrd_success);
	ck_assert_int_eq(thrd_join(t, &res), thrd_success);
	ck_assert_int_eq(res, thrd_timedout);
	ck_assert_int_eq(mtx_unlock(&m), thrd_success);
	struct timespec at = abs_in_ms(1000);
	ck_assert_int_eq(mtx_timedlock(&m, &at), thrd_success);
	ck_assert_int_eq(mtx_unlock(&m), thrd_success);
	mtx_destroy(&m);
}
END_TEST

/* Recursive mutex: the owner may relock it; others are busy until it
 * has been unlocked as many times. */
START_TEST(mtx_recursive_relock)
{
	thrd_t t;
	int res;

	ck_assert_int_eq(mtx_init(&m, mtx_plain | mtx_recursive), thrd_success);
	ck_assert_int_eq(mtx_lock(&m), thrd_success);
	ck_assert_int_eq(mtx_lock(&m), thrd_success);
	ck_assert_int_eq(mtx_trylock(&m), thrd_success);
	ck_assert_int_eq(mtx_unlock(&m), thrd_success);
	ck_assert_int_eq(mtx_unlock(&m), thrd_success);
	ck_assert_int_eq(thrd_create(&t, try_lock, &m), thrd_success);
	ck_assert_int_eq(thrd_join(t, &res), thrd_success);
	ck_assert_int_eq(res, thrd_busy);
	ck_assert_int_eq(mtx_unlock(&m), thrd_success);
	ck_assert_int_eq(thrd_create(&t, try_lock, &m), thrd_success);
	ck_assert_int_eq(thrd_join(t, &res), thrd_success);
	ck_assert_int_eq(res, thrd_success);
	mtx_destroy(&m);
}
END_TEST

/* ---- condition variables */

#define NWAITERS 4
static int tokens, awake, waiting;

static int wait_token(void *arg)
{
	mtx_lock(&m);
	waiting++;
	cnd_broadcast(&c);              /* tell main one more waits */
	while (!tokens) ck_assert_int_eq(cnd_wait(&c, &m), thrd_success);
	tokens--;
	awake++;
	mtx_unlock(&m);
	return 0;
}

/* cnd_signal wakes a waiter, cnd_broadcast wakes all of them (one that
 * were not woken would never finish); woken waiters own the mutex. */
START_TEST(cnd_signal_broadcast)
{
	thrd_t t[NWAITERS];
	int i;

	ck_assert_int_eq(mtx_init(&m, mtx_plain), thrd_success);
	ck_assert_int_eq(cnd_init(&c), thrd_success);
	tokens = awake = waiting = 0;
	for (i = 0; i < NWAITERS; i++)
		ck_assert_int_eq(thrd_create(&t[i], wait_token, 0), thrd_success);
	mtx_lock(&m);
	while (waiting < NWAITERS) cnd_wait(&c, &m);
	tokens = 1;
	ck_assert_int_eq(cnd_signal(&c), thrd_success);
	while (awake < 1) {
		mtx_unlock(&m);
		thrd_yield();
		mtx_lock(&m);
	}
	ck_assert_int_eq(awake, 1);
	tokens = NWAITERS - 1;
	ck_assert_int_eq(cnd_broadcast(&c), thrd_success);
	mtx_unlock(&m);
	for (i = 0; i < NWAITERS; i++) ck_assert_int_eq(thrd_join(t[i], 0), thrd_success);
	ck_assert_int_eq(awake, NWAITERS);
	ck_assert_int_eq(tokens, 0);
	cnd_destroy(&c);
	mtx_destroy(&m);
}
END_TEST

/* cnd_timedwait returns thrd_timedout with the mutex held again. */
START_TEST(cnd_timedwait_timeout)
{
	struct timespec at;
	uint64_t t0;
	thrd_t t;
	int res;

	ck_assert_int_eq(mtx_init(&m, mtx_plain), thrd_success);
	ck_assert_int_eq(cnd_init(&c), thrd_success);
	mtx_lock(&m);
	t0 = now_ns();
	at = abs_in_ms(50);
	ck_assert_int_eq(cnd_timedwait(&c, &m, &at), thrd_timedout);
	ck_assert_slept(t0, 40000000u);
	ck_assert_int_eq(thrd_create(&t, try_lock, &m), thrd_success);
	ck_assert_int_eq(thrd_join(t, &res), thrd_success);
	ck_assert_int_eq(res, thrd_busy);
	mtx_unlock(&m);
	cnd_destroy(&c);
	mtx_destroy(&m);
}
END_TEST

/* ---- thread-specific storage */

static tss_t key;
static int dtor_calls;
static void *dtor_value;

static void dtor(void *v)
{
	__atomic_add_fetch(&dtor_calls, 1, __ATOMIC_SEQ_CST);
	dtor_value = v;
}

static int use_tss(void *arg)
{
	ck_assert_ptr_null(tss_get(key));
	ck_assert_int_eq(tss_set(key, arg), thrd_success);
	ck_assert_ptr_eq(tss_get(key), arg);
	thrd_yield();
	ck_assert_ptr_eq(tss_get(key), arg);
	return 0;
}

/* tss values are per thread; a thread's non-null value is passed to the
 * destructor when it exits. */
START_TEST(tss_destructor)
{
	static int mine, theirs;
	thrd_t t;

	dtor_calls = 0;
	dtor_value = 0;
	ck_assert_int_eq(tss_create(&key, dtor), thrd_success);
	ck_assert_int_eq(tss_set(key, &mine), thrd_success);
	ck_assert_int_eq(thrd_create(&t, use_tss, &theirs), thrd_success);
	ck_assert_int_eq(thrd_join(t, 0), thrd_success);
	ck_assert_int_eq(dtor_calls, 1);
	ck_assert_ptr_eq(dtor_value, &theirs);
	ck_assert_ptr_eq(tss_get(key), &mine);
	ck_assert_int_eq(tss_set(key, 0), thrd_success);
	tss_delete(key);
}
END_TEST

/* ---- call_once */

static once_flag once = ONCE_FLAG_INIT;
static int once_calls;

static void init_once(void)
{
	thrd_yield();                   /* others arrive while it runs */
	__atomic_add_fetch(&once_calls, 1, __ATOMIC_SEQ_CST);
}

static int call_it(void *arg)
{
	call_once(&once, init_once);
	/* nobody returns before the function has completed */
	ck_assert_int_eq(__atomic_load_n(&once_calls, __ATOMIC_SEQ_CST), 1);
	return 0;
}

/* call_once from several threads runs the function exactly once, and
 * every caller returns after it has completed. */
START_TEST(call_once_once)
{
	thrd_t t[5];
	int i;

	for (i = 0; i < 5; i++) ck_assert_int_eq(thrd_create(&t[i], call_it, 0), thrd_success);
	call_it(0);
	for (i = 0; i < 5; i++) ck_assert_int_eq(thrd_join(t[i], 0), thrd_success);
	ck_assert_int_eq(once_calls, 1);
}
END_TEST

Suite *suite_c11(void)
{
	Suite *s = suite_create("c11");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, create_join_result);
	tcase_add_test(tc, thrd_exit_code);
	tcase_add_test(tc, detach);
	tcase_add_test(tc, current_equal);
	tcase_add_test(tc, sleep_yield);
	tcase_add_test(tc, mtx_plain_busy);
	tcase_add_test(tc, mtx_timed_timeout);
	tcase_add_test(tc, mtx_recursive_relock);
	tcase_add_test(tc, cnd_signal_broadcast);
	tcase_add_test(tc, cnd_timedwait_timeout);
	tcase_add_test(tc, tss_destructor);
	tcase_add_test(tc, call_once_once);
	if (cooperative()) tcase_add_test(tc, yield_switches);
	suite_add_tcase(s, tc);
	return s;
}
