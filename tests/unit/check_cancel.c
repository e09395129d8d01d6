/* check_cancel.c — Check suite: cancellation and cleanup handlers. */
#include <errno.h>
#include <sched.h>
#include <semaphore.h>
#include <unistd.h>
#include "testutil.h"

#define LOAD(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)

/* Wait, yielding, until *f becomes non-zero. */
static void await(int *f)
{
	while (!LOAD(f)) sched_yield();
}

static int ready, cleaned, reached;

static void mark_cleaned(void *arg)
{
	STORE(&cleaned, 1);
}

/* ---- in pthread_cond_wait */

static pthread_mutex_t m;
static pthread_cond_t cv;
static int unlock_result = -1;

static void unlock_in_cleanup(void *arg)
{
	/* the mutex is an error-checking one: unlock succeeds only if the
	 * cancelled waiter owns it again */
	unlock_result = pthread_mutex_unlock(&m);
}

static void *cond_waiter(void *arg)
{
	pthread_mutex_lock(&m);
	pthread_cleanup_push(unlock_in_cleanup, 0);
	STORE(&ready, 1);
	for (;;) pthread_cond_wait(&cv, &m);
	pthread_cleanup_pop(0);
	return 0;
}

/* A thread cancelled in pthread_cond_wait runs its cleanup handler with
 * the mutex re-acquired (an error-checking unlock there succeeds), and
 * joining it yields PTHREAD_CANCELED. */
START_TEST(cancel_cond_wait)
{
	pthread_mutexattr_t a;
	pthread_t t;
	void *res;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	ck_assert_int_eq(pthread_mutex_init(&m, &a), 0);
	pthread_cond_init(&cv, 0);
	ready = 0;
	unlock_result = -1;
	SPAWN(&t, cond_waiter, 0);
	/* once ready is set and the mutex is free, the thread is waiting */
	for (;;) {
		pthread_mutex_lock(&m);
		if (LOAD(&ready)) break;
		pthread_mutex_unlock(&m);
		sched_yield();
	}
	ck_assert_int_eq(pthread_cancel(t), 0);
	pthread_mutex_unlock(&m);
	JOIN(t, &res);
	ck_assert_ptr_eq(res, PTHREAD_CANCELED);
	ck_assert_int_eq(unlock_result, 0);
	/* and the handler's unlock really released it */
	ck_assert_int_eq(pthread_mutex_trylock(&m), 0);
	ck_assert_int_eq(pthread_mutex_unlock(&m), 0);
	pthread_cond_destroy(&cv);
	pthread_mutex_destroy(&m);
}
END_TEST

/* ---- in sleeps */

static void *sleeper(void *arg)
{
	pthread_cleanup_push(mark_cleaned, 0);
	STORE(&ready, 1);
	if (arg) {
		struct timespec ts = { 1000, 0 };
		nanosleep(&ts, 0);
	} else {
		sleep(1000);
	}
	STORE(&reached, 1);
	pthread_cleanup_pop(0);
	return 0;
}

static void cancel_sleeper(void *how)
{
	pthread_t t;
	void *res;
	uint64_t t0 = now_ns();

	ready = cleaned = reached = 0;
	SPAWN(&t, sleeper, how);
	await(&ready);
	ck_assert_int_eq(pthread_cancel(t), 0);
	JOIN(t, &res);
	ck_assert_ptr_eq(res, PTHREAD_CANCELED);
	ck_assert_int_eq(cleaned, 1);
	ck_assert_int_eq(reached, 0);
	ck_assert_uint_lt(now_ns() - t0, 20000000000u);   /* not the whole sleep */
}

/* A thread cancelled in sleep() ends at once, running its handler. */
START_TEST(cancel_sleep)
{
	cancel_sleeper(0);
}
END_TEST

/* A thread cancelled in nanosleep() ends at once, running its handler. */
START_TEST(cancel_nanosleep)
{
	cancel_sleeper((void *)1);
}
END_TEST

/* ---- in pthread_join */

static sem_t release;

static void *wait_release(void *arg)
{
	sem_wait(&release);
	return (void *)7;
}

static void *joiner(void *arg)
{
	pthread_cleanup_push(mark_cleaned, 0);
	STORE(&ready, 1);
	pthread_join(*(pthread_t *)arg, 0);
	STORE(&reached, 1);
	pthread_cleanup_pop(0);
	return 0;
}

/* A thread cancelled while in pthread_join ends without joining its
 * target, which stays joinable. */
START_TEST(cancel_join)
{
	pthread_t target, j;
	void *res;

	ready = cleaned = reached = 0;
	ck_assert_int_eq(sem_init(&release, 0, 0), 0);
	SPAWN(&target, wait_release, 0);
	SPAWN(&j, joiner, &target);
	await(&ready);
	ck_assert_int_eq(pthread_cancel(j), 0);
	JOIN(j, &res);
	ck_assert_ptr_eq(res, PTHREAD_CANCELED);
	ck_assert_int_eq(cleaned, 1);
	ck_assert_int_eq(reached, 0);
	ck_assert_int_eq(sem_post(&release), 0);
	JOIN(target, &res);
	ck_assert_ptr_eq(res, (void *)7);
	sem_destroy(&release);
}
END_TEST

/* ---- in sem_wait */

static sem_t never;

static void *sem_waiter(void *arg)
{
	pthread_cleanup_push(mark_cleaned, 0);
	STORE(&ready, 1);
	sem_wait(arg);
	STORE(&reached, 1);
	pthread_cleanup_pop(0);
	return 0;
}

static void cancel_sem_waiter(int shared)
{
	pthread_t t;
	void *res;
	int v;

	ready = cleaned = reached = 0;
	ck_assert_int_eq(sem_init(&never, shared, 0), 0);
	SPAWN(&t, sem_waiter, &never);
	await(&ready);
	ck_assert_int_eq(pthread_cancel(t), 0);
	JOIN(t, &res);
	ck_assert_ptr_eq(res, PTHREAD_CANCELED);
	ck_assert_int_eq(cleaned, 1);
	ck_assert_int_eq(reached, 0);
	ck_assert_int_eq(sem_post(&never), 0);
	ck_assert_int_eq(sem_getvalue(&never, &v), 0);
	ck_assert_int_eq(v, 1);
	sem_destroy(&never);
}

/* A thread cancelled in sem_wait ends without consuming a post: the
 * semaphore's value is unchanged afterwards. */
START_TEST(cancel_sem_wait)
{
	cancel_sem_waiter(0);
}
END_TEST

/* The same for a process-shared semaphore (waited on by polling). */
START_TEST(cancel_sem_wait_pshared)
{
	cancel_sem_waiter(1);
}
END_TEST

/* ---- a mutex wait is not a cancellation point */

static int got_mutex;

static void *lock_then_test(void *arg)
{
	STORE(&ready, 1);
	pthread_mutex_lock(&m);
	STORE(&got_mutex, 1);
	pthread_mutex_unlock(&m);
	pthread_testcancel();
	STORE(&reached, 1);
	return 0;
}

/* A cancel request does not break a thread out of pthread_mutex_lock: it
 * gets the mutex when it is released and acts on the request at its next
 * cancellation point. */
START_TEST(cancel_not_in_mutex_lock)
{
	pthread_t t;
	void *res;

	ready = got_mutex = reached = 0;
	pthread_mutex_init(&m, 0);
	pthread_mutex_lock(&m);
	SPAWN(&t, lock_then_test, 0);
	await(&ready);
	ck_assert_int_eq(pthread_cancel(t), 0);
	pthread_mutex_unlock(&m);
	JOIN(t, &res);
	ck_assert_ptr_eq(res, PTHREAD_CANCELED);
	ck_assert_int_eq(got_mutex, 1);
	ck_assert_int_eq(reached, 0);
	pthread_mutex_destroy(&m);
}
END_TEST

/* ---- disabled cancellation */

static sem_t go;
static int survived;

static void *disabled(void *arg)
{
	int old;
	ck_assert_int_eq(pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old), 0);
	ck_assert_int_eq(old, PTHREAD_CANCEL_ENABLE);
	STORE(&ready, 1);
	ck_assert_int_eq(sem_wait(&go), 0);     /* a cancellation point, disabled */
	pthread_testcancel();
	STORE(&survived, 1);
	ck_assert_int_eq(pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old), 0);
	ck_assert_int_eq(old, PTHREAD_CANCEL_DISABLE);
	pthread_testcancel();                   /* acts on the pending request */
	STORE(&reached, 1);
	return 0;
}

/* With cancellation disabled a request stays pending through
 * cancellation points; it takes effect at the first one after enabling. */
START_TEST(disable_defers)
{
	pthread_t t;
	void *res;

	ready = survived = reached = 0;
	ck_assert_int_eq(sem_init(&go, 0, 0), 0);
	SPAWN(&t, disabled, 0);
	await(&ready);
	ck_assert_int_eq(pthread_cancel(t), 0);
	ck_assert_int_eq(sem_post(&go), 0);
	JOIN(t, &res);
	ck_assert_ptr_eq(res, PTHREAD_CANCELED);
	ck_assert_int_eq(survived, 1);
	ck_assert_int_eq(reached, 0);
	sem_destroy(&go);
}
END_TEST

/* ---- cleanup handlers */

static int log_[8], nlog;

static void record(void *arg)
{
	log_[nlog++] = (int)(intptr_t)arg;
}

/* pthread_cleanup_pop runs the handler only when asked to. */
START_TEST(push_pop_execute)
{
	nlog = 0;
	pthread_cleanup_push(record, (void *)1);
	pthread_cleanup_push(record, (void *)2);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(1);
	pthread_cleanup_push(record, (void *)3);
	pthread_cleanup_pop(1);
	ck_assert_int_eq(nlog, 2);
	ck_assert_int_eq(log_[0], 1);
	ck_assert_int_eq(log_[1], 3);
}
END_TEST

static void *exit_with_handlers(void *arg)
{
	pthread_cleanup_push(record, (void *)1);
	pthread_cleanup_push(record, (void *)2);
	pthread_cleanup_push(record, (void *)3);
	pthread_cleanup_push(record, (void *)4);
	pthread_cleanup_pop(0);
	pthread_exit((void *)42);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	return 0;
}

/* pthread_exit runs the handlers still pushed, last pushed first, and
 * the exit value reaches the joiner. */
START_TEST(exit_runs_handlers_reversed)
{
	pthread_t t;
	void *res;

	nlog = 0;
	SPAWN(&t, exit_with_handlers, 0);
	JOIN(t, &res);
	ck_assert_ptr_eq(res, (void *)42);
	ck_assert_int_eq(nlog, 3);
	ck_assert_int_eq(log_[0], 3);
	ck_assert_int_eq(log_[1], 2);
	ck_assert_int_eq(log_[2], 1);
}
END_TEST

static void *cancel_self(void *arg)
{
	pthread_cleanup_push(record, (void *)5);
	pthread_cancel(pthread_self());
	STORE(&survived, 1);                    /* deferred: still running */
	pthread_testcancel();
	STORE(&reached, 1);
	pthread_cleanup_pop(0);
	return 0;
}

/* A deferred self-cancel takes effect at the next cancellation point. */
START_TEST(cancel_self_deferred)
{
	pthread_t t;
	void *res;

	nlog = survived = reached = 0;
	SPAWN(&t, cancel_self, 0);
	JOIN(t, &res);
	ck_assert_ptr_eq(res, PTHREAD_CANCELED);
	ck_assert_int_eq(survived, 1);
	ck_assert_int_eq(reached, 0);
	ck_assert_int_eq(nlog, 1);
	ck_assert_int_eq(log_[0], 5);
}
END_TEST

static void *return_at_once(void *arg)
{
	STORE(&reached, 1);
	return arg;
}

/* Cancelling a thread that has returned but is not joined yet succeeds
 * and changes nothing: its ID lives until the join (POSIX), as for
 * pthread_kill.  The join still gets its result. */
START_TEST(cancel_exited_unjoined)
{
	pthread_t t;
	void *res;

	reached = 0;
	SPAWN(&t, return_at_once, (void *)7);
	await(&reached);
	for (int i = 0; i < 100; i++) sched_yield();    /* t has exited (green: surely) */
	ck_assert_int_eq(pthread_cancel(t), 0);
	ck_assert_int_eq(pthread_cancel(t), 0);
	JOIN(t, &res);
	ck_assert_ptr_eq(res, (void *)7);
}
END_TEST

Suite *suite_cancel(void)
{
	Suite *s = suite_create("cancel");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 30);
	tcase_add_cp_cancel_test(tc, cancel_cond_wait);
	tcase_add_cp_cancel_test(tc, cancel_sleep);
	tcase_add_cp_cancel_test(tc, cancel_nanosleep);
	tcase_add_cp_cancel_test(tc, cancel_join);
	tcase_add_cp_cancel_test(tc, cancel_sem_wait);
	tcase_add_cp_cancel_test(tc, cancel_sem_wait_pshared);
	tcase_add_test(tc, cancel_not_in_mutex_lock);
	tcase_add_test(tc, disable_defers);
	tcase_add_test(tc, push_pop_execute);
	tcase_add_test(tc, exit_runs_handlers_reversed);
	tcase_add_test(tc, cancel_self_deferred);
	tcase_add_test(tc, cancel_exited_unjoined);
	suite_add_tcase(s, tc);
	return s;
}
