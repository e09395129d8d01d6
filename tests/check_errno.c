/*
 * check_errno.c — Check suite: errno.
 *
 * errno is per thread.  In green mode every thread shares musl's one
 * thread control block and errno is saved and restored on each switch
 * (shallow binding); these tests catch a switch that forgets to.
 */
#include "testutil.h"
#include <errno.h>
#include <sched.h>
#include <unistd.h>

static void wait_for(int *p, int v)
{
	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) < v) sched_yield();
}

static void *keep_errno(void *arg)
{
	int mine = (int)(intptr_t)arg, ok = 1;
	errno = mine;
	for (int i = 0; i < 1000; i++) {
		sched_yield();
		ok &= errno == mine;
	}
	return (void *)(intptr_t)ok;
}

/* Threads each set a distinct errno, yield many times among each other,
 * and find their own value every time; main's value survives too. */
START_TEST(errno_per_thread)
{
	enum { N = 8 };
	pthread_t t[N];
	void *ok;
	for (int i = 0; i < N; i++) SPAWN(&t[i], keep_errno, (void *)(intptr_t)(1000 + i));
	errno = 77;
	for (int i = 0; i < N; i++) {
		JOIN(t[i], &ok);
		ck_assert_int_eq((intptr_t)ok, 1);
	}
	ck_assert_int_eq(errno, 77);
}
END_TEST

static int failed, checked;
static int fail_errno_after, other_errno_after;

static void *failer(void *arg)
{
	errno = 0;
	close(-1);                              /* fails with EBADF */
	__atomic_store_n(&failed, 1, __ATOMIC_RELEASE);
	wait_for(&checked, 1);                  /* the other thread ran meanwhile */
	fail_errno_after = errno;
	return 0;
}

static void *bystander(void *arg)
{
	errno = 0;
	wait_for(&failed, 1);
	other_errno_after = errno;
	__atomic_store_n(&checked, 1, __ATOMIC_RELEASE);
	return 0;
}

/* A failing call's errno stays with the thread that made it. */
START_TEST(errno_failure_private)
{
	pthread_t a, b;
	failed = checked = 0;
	fail_errno_after = other_errno_after = -1;
	SPAWN(&b, bystander, 0);
	SPAWN(&a, failer, 0);
	JOIN(a, 0);
	JOIN(b, 0);
	ck_assert_int_eq(fail_errno_after, EBADF);
	ck_assert_int_eq(other_errno_after, 0);
}
END_TEST

Suite *suite_errno(void)
{
	Suite *s = suite_create("errno");
	TCase *tc = tcase_create("errno");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, errno_per_thread);
	tcase_add_test(tc, errno_failure_private);
	suite_add_tcase(s, tc);
	return s;
}
