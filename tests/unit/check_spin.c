/* check_spin.c — Check suite: spin locks. */
#include <errno.h>
#include <sched.h>
#include "testutil.h"

static pthread_spinlock_t sl;

static void *try_spin(void *arg)
{
	return (void *)(intptr_t)pthread_spin_trylock(&sl);
}

/* Lock, unlock, and trylock: EBUSY for another thread while held, success
 * once released. */
START_TEST(lock_trylock)
{
	pthread_t t;
	void *res;

	ck_assert_int_eq(pthread_spin_init(&sl, PTHREAD_PROCESS_PRIVATE), 0);
	ck_assert_int_eq(pthread_spin_lock(&sl), 0);
	SPAWN(&t, try_spin, 0);
	JOIN(t, &res);
	ck_assert_int_eq((intptr_t)res, EBUSY);
	ck_assert_int_eq(pthread_spin_unlock(&sl), 0);
	ck_assert_int_eq(pthread_spin_trylock(&sl), 0);
	ck_assert_int_eq(pthread_spin_trylock(&sl), EBUSY);
	ck_assert_int_eq(pthread_spin_unlock(&sl), 0);
	ck_assert_int_eq(pthread_spin_lock(&sl), 0);
	ck_assert_int_eq(pthread_spin_unlock(&sl), 0);
	ck_assert_int_eq(pthread_spin_destroy(&sl), 0);
}
END_TEST

#define NTHREADS 5
/* kernel threads spinning while the holder yields make 1:1 mode slow */
#define ITERS (GREEN_MODE ? 400 : 60)
static int inside;
static long counter;

static void *contend(void *arg)
{
	for (int i = 0; i < ITERS; i++) {
		ck_assert_int_eq(pthread_spin_lock(&sl), 0);
		ck_assert_int_eq(__atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST), 1);
		long v = counter;
		sched_yield();          /* hold the lock across a yield */
		counter = v + 1;
		__atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
		ck_assert_int_eq(pthread_spin_unlock(&sl), 0);
		if (i % 5 == 0) sched_yield();
	}
	return 0;
}

/* Threads contending for a spin lock that its holder keeps across a
 * yield: still one holder at a time and no lost update. */
START_TEST(contended_exclusive)
{
	pthread_t t[NTHREADS];
	int i;

	ck_assert_int_eq(pthread_spin_init(&sl, PTHREAD_PROCESS_PRIVATE), 0);
	inside = 0;
	counter = 0;
	for (i = 0; i < NTHREADS; i++) SPAWN(&t[i], contend, 0);
	for (i = 0; i < NTHREADS; i++) JOIN(t[i], 0);
	ck_assert_int_eq(counter, (long)NTHREADS * ITERS);
	ck_assert_int_eq(pthread_spin_destroy(&sl), 0);
}
END_TEST

/* Green: relocking by the owner is EDEADLK rather than spinning forever. */
START_TEST(relock_edeadlk)
{
	ck_assert_int_eq(pthread_spin_init(&sl, PTHREAD_PROCESS_PRIVATE), 0);
	ck_assert_int_eq(pthread_spin_lock(&sl), 0);
	ck_assert_int_eq(pthread_spin_lock(&sl), EDEADLK);
	ck_assert_int_eq(pthread_spin_unlock(&sl), 0);
	ck_assert_int_eq(pthread_spin_destroy(&sl), 0);
}
END_TEST

static void *relock_in_thread(void *arg)
{
	ck_assert_int_eq(pthread_spin_lock(&sl), 0);   /* waits for main */
	ck_assert_int_eq(pthread_spin_lock(&sl), EDEADLK);
	ck_assert_int_eq(pthread_spin_unlock(&sl), 0);
	return 0;
}

/* Green: relocking is recognised for a thread other than the initial one,
 * after the lock has been contended (the word carries a waiter flag). */
START_TEST(relock_edeadlk_contended)
{
	pthread_t t;

	ck_assert_int_eq(pthread_spin_init(&sl, PTHREAD_PROCESS_PRIVATE), 0);
	ck_assert_int_eq(pthread_spin_lock(&sl), 0);
	SPAWN(&t, relock_in_thread, 0);
	sched_yield();                  /* t runs and waits */
	ck_assert_int_eq(pthread_spin_unlock(&sl), 0);
	JOIN(t, 0);
	ck_assert_int_eq(pthread_spin_destroy(&sl), 0);
}
END_TEST

Suite *suite_spin(void)
{
	Suite *s = suite_create("spin");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, lock_trylock);
	tcase_add_test(tc, contended_exclusive);
	if (GREEN_MODE) {
		tcase_add_test(tc, relock_edeadlk);
		tcase_add_test(tc, relock_edeadlk_contended);
	}
	suite_add_tcase(s, tc);
	return s;
}
