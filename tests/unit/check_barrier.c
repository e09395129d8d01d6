/* check_barrier.c — Check suite: barriers. */
#include <errno.h>
#include <sched.h>
#include "testutil.h"

/* A barrier for no threads is refused. */
START_TEST(count_zero_einval)
{
	pthread_barrier_t b;
	ck_assert_int_eq(pthread_barrier_init(&b, 0, 0), EINVAL);
}
END_TEST

/* A barrier of one never waits and always elects its caller. */
START_TEST(count_one)
{
	pthread_barrier_t b;
	ck_assert_int_eq(pthread_barrier_init(&b, 0, 1), 0);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(pthread_barrier_wait(&b), PTHREAD_BARRIER_SERIAL_THREAD);
	ck_assert_int_eq(pthread_barrier_destroy(&b), 0);
}
END_TEST

#define NTHREADS 5
#define ROUNDS 20

static pthread_barrier_t bar;
static int arrived[ROUNDS], serial[ROUNDS];

static void *rounds(void *arg)
{
	int id = (int)(intptr_t)arg, r, res;

	for (r = 0; r < ROUNDS; r++) {
		/* vary the arrival order from round to round */
		for (int y = 0; y < (id + r) % NTHREADS; y++) sched_yield();
		__atomic_add_fetch(&arrived[r], 1, __ATOMIC_SEQ_CST);
		res = pthread_barrier_wait(&bar);
		ck_assert(res == 0 || res == PTHREAD_BARRIER_SERIAL_THREAD);
		/* nobody leaves a round before everybody has arrived in it */
		ck_assert_int_eq(__atomic_load_n(&arrived[r], __ATOMIC_SEQ_CST), NTHREADS);
		if (res == PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_add_fetch(&serial[r], 1, __ATOMIC_SEQ_CST);
	}
	return 0;
}

/* N threads through several rounds of one barrier: no thread passes
 * before all arrive, and each round elects exactly one serial thread. */
START_TEST(rounds_one_serial)
{
	pthread_t t[NTHREADS];
	int i;

	memset(arrived, 0, sizeof arrived);
	memset(serial, 0, sizeof serial);
	ck_assert_int_eq(pthread_barrier_init(&bar, 0, NTHREADS), 0);
	for (i = 0; i < NTHREADS; i++) SPAWN(&t[i], rounds, (void *)(intptr_t)i);
	for (i = 0; i < NTHREADS; i++) JOIN(t[i], 0);
	for (i = 0; i < ROUNDS; i++) {
		ck_assert_int_eq(arrived[i], NTHREADS);
		ck_assert_int_eq(serial[i], 1);
	}
	ck_assert_int_eq(pthread_barrier_destroy(&bar), 0);
}
END_TEST

static int passed;

static void *pass_once(void *arg)
{
	pthread_barrier_wait(&bar);
	__atomic_add_fetch(&passed, 1, __ATOMIC_SEQ_CST);
	return 0;
}

/* Green: threads wait at the barrier until the last one arrives; the
 * arrival that completes the count is the serial thread. */
START_TEST(waits_for_last)
{
	pthread_t t[NTHREADS - 1];
	int i;

	passed = 0;
	ck_assert_int_eq(pthread_barrier_init(&bar, 0, NTHREADS), 0);
	for (i = 0; i < NTHREADS - 1; i++) SPAWN(&t[i], pass_once, 0);
	for (i = 0; i < 10; i++) sched_yield();
	ck_assert_int_eq(passed, 0);
	ck_assert_int_eq(pthread_barrier_destroy(&bar), EBUSY);
	ck_assert_int_eq(pthread_barrier_wait(&bar), PTHREAD_BARRIER_SERIAL_THREAD);
	for (i = 0; i < NTHREADS - 1; i++) JOIN(t[i], 0);
	ck_assert_int_eq(passed, NTHREADS - 1);
	ck_assert_int_eq(pthread_barrier_destroy(&bar), 0);
}
END_TEST

/* The thread that ends a round may destroy the barrier and reuse its
 * memory as soon as its own wait returns, while the others it woke
 * have not run yet (musl's mq_notify does so with a barrier on its
 * stack).  Here the last arrival returns from the function whose frame
 * held the barrier and covers that stack with zeros, the generation the
 * woken waiters entered with, before they run: a waiter that looked at
 * the barrier again would wait on the zeros forever (the deadlock
 * report, or a join that hangs) or write its queue links into the
 * caller's frames. */
static void *arrive_first(void *arg)
{
	pthread_barrier_wait(arg);
	return 0;
}

/* the wait's and the destroy's results in r[0] and r[1]; nothing
 * between the wait and the return that could let the woken run (no
 * assertion: Check's writes) */
static __attribute__((noinline)) void round_on_stack(pthread_t *t, int n, int *r)
{
	pthread_barrier_t b;

	ck_assert_int_eq(pthread_barrier_init(&b, 0, n + 1), 0);
	for (int i = 0; i < n; i++) SPAWN(&t[i], arrive_first, &b);
	for (int i = 0; i < 10; i++) sched_yield();   /* each waits in the barrier */
	r[0] = pthread_barrier_wait(&b);
	r[1] = pthread_barrier_destroy(&b);
}

/* zeros over the frame the barrier was in, kept there while the
 * woken waiters run: they run when this thread joins them */
static __attribute__((noinline)) int cover_and_join(pthread_t *t, int n)
{
	volatile char zeros[4096];
	int bad = 0;

	for (size_t i = 0; i < sizeof zeros; i++) zeros[i] = 0;
	for (int i = 0; i < n; i++) bad += pthread_join(t[i], 0) != 0;
	return bad + zeros[0];
}

START_TEST(destroyed_before_waiters_run)
{
	pthread_t t[3];
	int r[2];

	round_on_stack(t, 3, r);
	ck_assert_int_eq(cover_and_join(t, 3), 0);
	ck_assert_int_eq(r[0], PTHREAD_BARRIER_SERIAL_THREAD);
	ck_assert_int_eq(r[1], 0);
}
END_TEST

Suite *suite_barrier(void)
{
	Suite *s = suite_create("barrier");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, count_zero_einval);
	tcase_add_test(tc, count_one);
	tcase_add_test(tc, rounds_one_serial);
	if (GREEN_MODE) {
		tcase_add_test(tc, waits_for_last);
	}
	suite_add_tcase(s, tc);
	if (GREEN_MODE) {
		/* a destroy while a woken waiter is still leaving the wait,
		 * which ThreadSanitizer's model of a barrier, and so --race's
		 * (src/race/sync.c), reports as a race: tests/race/race.sh
		 * leaves the tag out */
		TCase *reuse = tcase_create("reuse");
		tcase_set_tags(reuse, "destroy-while-leaving");
		tcase_add_test(reuse, destroyed_before_waiters_run);
		suite_add_tcase(s, reuse);
	}
	return s;
}
