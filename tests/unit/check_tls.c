/*
 * check_tls.c — Check suite: `__thread` / `_Thread_local` are per thread.
 *
 * Every thread, green or kernel, sees its own copy of each thread-local
 * variable: initialised from .tdata or zero (.tbss) when the thread
 * starts, aligned as declared, kept across yields, preemptions and
 * (copied stacks) parking, reachable from other threads by address while
 * the owner is parked, and fresh again in a thread that reuses an exited
 * thread's stack.  New threads start with their creator's floating-point
 * rounding mode.  Threads made by a constructor and the child of a fork
 * have theirs too.
 *
 * Linking this suite gives the runner a TLS segment, so in green mode
 * every suite of this runner runs with a TCB per thread (src/core/stack/tls.c);
 * The shared-tcb modes (tests/unit/modes.txt) run the other suites without it.
 */
#include "testutil.h"
#include <errno.h>
#include <fenv.h>
#include <netdb.h>
#include <sched.h>
#include <semaphore.h>
#include <stdint.h>
#include <threads.h>
#include <unistd.h>
#include <sys/wait.h>

static __thread int tl_init = 42;                 /* .tdata */
static __thread long tl_zero;                     /* .tbss */
static __thread unsigned long tl_count;
static __thread char tl_a64[100] __attribute__((aligned(64))) = { 1 };
static __thread char tl_page[64] __attribute__((aligned(4096)));
static _Thread_local int c11_local = 7;

/* A fresh thread's view: initial values and alignment. */
struct fresh {
	int init;
	long zero;
	unsigned long count;
	int a64_first;
	uintptr_t a64_addr, page_addr;
	int page_zero;
};

static void look(struct fresh *f)
{
	f->init = tl_init;
	f->zero = tl_zero;
	f->count = tl_count;
	f->a64_first = tl_a64[0];
	f->a64_addr = (uintptr_t)tl_a64;
	f->page_addr = (uintptr_t)tl_page;
	f->page_zero = 1;
	for (size_t i = 0; i < sizeof tl_page; i++)
		if (tl_page[i]) f->page_zero = 0;
}

static void assert_fresh(const struct fresh *f)
{
	ck_assert_int_eq(f->init, 42);
	ck_assert_int_eq(f->zero, 0);
	ck_assert_uint_eq(f->count, 0);
	ck_assert_int_eq(f->a64_first, 1);
	ck_assert_uint_eq(f->a64_addr % 64, 0);
	ck_assert_uint_eq(f->page_addr % 4096, 0);
	ck_assert(f->page_zero);
}

/* Dirty every variable, so a thread that wrongly shares them shows it. */
static void dirty(void)
{
	tl_init = -1;
	tl_zero = -1;
	tl_count = 12345;
	tl_a64[0] = 9;
	tl_page[0] = 9;
	c11_local = -7;
}

static void *fresh_then_dirty(void *arg)
{
	look(arg);
	dirty();
	return 0;
}

START_TEST(initial_values)
{
	pthread_t t[4];
	struct fresh f[4];
	struct fresh mine;

	dirty();
	for (int i = 0; i < 4; i++) SPAWN(&t[i], fresh_then_dirty, &f[i]);
	for (int i = 0; i < 4; i++) JOIN(t[i], 0);
	for (int i = 0; i < 4; i++) assert_fresh(&f[i]);
	/* and the creator's own copies are untouched by the threads */
	ck_assert_int_eq(tl_init, -1);
	ck_assert_int_eq(tl_zero, -1);
	ck_assert_uint_eq(tl_count, 12345);
	/* a second generation reuses the first's stacks (the stack cache):
	 * still fresh */
	for (int i = 0; i < 4; i++) SPAWN(&t[i], fresh_then_dirty, &f[i]);
	for (int i = 0; i < 4; i++) JOIN(t[i], 0);
	for (int i = 0; i < 4; i++) assert_fresh(&f[i]);
	look(&mine);
	ck_assert_uint_eq(mine.a64_addr % 64, 0);
	ck_assert_uint_eq(mine.page_addr % 4096, 0);
}
END_TEST

/* Three threads count to N in one thread-local counter each, yielding
 * every few steps: each sees N, the creator 0. */
#define COUNT_TO 1000

static void *count_yielding(void *arg)
{
	for (int i = 0; i < COUNT_TO; i++) {
		tl_count++;
		if (i % 7 == 0) sched_yield();
	}
	return (void *)tl_count;
}

START_TEST(counters_across_yields)
{
	pthread_t t[3];
	void *r;

	tl_count = 0;
	for (int i = 0; i < 3; i++) SPAWN(&t[i], count_yielding, 0);
	for (int i = 0; i < 3; i++) {
		JOIN(t[i], &r);
		ck_assert_uint_eq((uintptr_t)r, COUNT_TO);
	}
	ck_assert_uint_eq(tl_count, 0);
}
END_TEST

/* The same without yields, long enough for ticks to preempt the counters
 * (when time slicing is on): the compiler must reload the counter every
 * step, so a preemption between a load and a store would show. */
#define SPIN_TO 20000000ul

static void *count_spinning(void *arg)
{
	for (unsigned long i = 0; i < SPIN_TO; i++) {
		tl_count++;
		__asm__ volatile ("" : : : "memory");
	}
	return (void *)tl_count;
}

START_TEST(counters_across_preemption)
{
	pthread_t t[2];
	void *r;

	tl_count = 0;
	for (int i = 0; i < 2; i++) SPAWN(&t[i], count_spinning, 0);
	for (int i = 0; i < 2; i++) {
		JOIN(t[i], &r);
		ck_assert_uint_eq((uintptr_t)r, SPIN_TO);
	}
	ck_assert_uint_eq(tl_count, 0);
}
END_TEST

/* errno and h_errno are per thread: each of two threads sets its own,
 * lets the other run, and finds its value kept. */
static sem_t turn[2];

static void *errno_keeper(void *arg)
{
	int me = (int)(intptr_t)arg, val = me ? ENOENT : EINTR;
	for (int round = 0; round < 3; round++) {
		ck_assert_int_eq(sem_wait(&turn[me]), 0);
		errno = val;
		h_errno = val + 100;
		ck_assert_int_eq(sem_post(&turn[!me]), 0);
		sched_yield();
		ck_assert_int_eq(errno, val);
		ck_assert_int_eq(h_errno, val + 100);
	}
	return 0;
}

START_TEST(errno_per_thread)
{
	pthread_t t[2];
	ck_assert_int_eq(sem_init(&turn[0], 0, 1), 0);
	ck_assert_int_eq(sem_init(&turn[1], 0, 0), 0);
	for (int i = 0; i < 2; i++) SPAWN(&t[i], errno_keeper, (void *)(intptr_t)i);
	for (int i = 0; i < 2; i++) JOIN(t[i], 0);
	sem_destroy(&turn[0]);
	sem_destroy(&turn[1]);
}
END_TEST

static int c11_body(void *arg)
{
	int seen = c11_local;
	c11_local = 100;
	thrd_yield();
	return seen * 1000 + c11_local;
}

START_TEST(c11_thread_local)
{
	thrd_t t;
	int res;
	c11_local = 5;
	ck_assert_int_eq(thrd_create(&t, c11_body, 0), thrd_success);
	ck_assert_int_eq(thrd_join(t, &res), thrd_success);
	ck_assert_int_eq(res, 7 * 1000 + 100);
	ck_assert_int_eq(c11_local, 5);
}
END_TEST

/* One thread publishes the address of its thread-local variable and
 * parks; another reads and writes through it; the owner sees the write.
 * With copied stacks the owner's stack is not in place while it is
 * parked, but its TLS is. */
static int *published;
static sem_t pub_ready, pub_done;

static void *owner(void *arg)
{
	tl_init = 77;
	published = &tl_init;
	ck_assert_int_eq(sem_post(&pub_ready), 0);
	ck_assert_int_eq(sem_wait(&pub_done), 0);   /* parked meanwhile */
	return (void *)(intptr_t)tl_init;
}

static void *visitor(void *arg)
{
	ck_assert_int_eq(sem_wait(&pub_ready), 0);
	ck_assert_int_eq(*published, 77);
	*published = 78;
	ck_assert_int_eq(tl_init, 42);              /* its own copy is fresh */
	ck_assert_int_eq(sem_post(&pub_done), 0);
	return 0;
}

START_TEST(address_while_parked)
{
	pthread_t o, v;
	void *r;
	ck_assert_int_eq(sem_init(&pub_ready, 0, 0), 0);
	ck_assert_int_eq(sem_init(&pub_done, 0, 0), 0);
	SPAWN(&o, owner, 0);
	SPAWN(&v, visitor, 0);
	JOIN(v, 0);
	JOIN(o, &r);
	ck_assert_int_eq((int)(intptr_t)r, 78);
	sem_destroy(&pub_ready);
	sem_destroy(&pub_done);
}
END_TEST

/* A thread created by a constructor, before main. */
static struct fresh ctor_seen;
static int ctor_ran;

static void *ctor_thread(void *arg)
{
	look(&ctor_seen);
	dirty();
	return 0;
}

__attribute__((constructor)) static void tls_ctor(void)
{
	pthread_t t;
	if (pthread_create(&t, 0, ctor_thread, 0) == 0 && pthread_join(t, 0) == 0)
		ctor_ran = 1;
}

START_TEST(from_constructor)
{
	ck_assert(ctor_ran);
	assert_fresh(&ctor_seen);
}
END_TEST

/* fork from a thread: the child runs on that thread, with its TLS. */
static void *forker(void *arg)
{
	pid_t pid;
	int st;
	tl_init = 4242;
	tl_zero = 99;
	pid = fork();
	if (pid == 0) _exit(tl_init == 4242 && tl_zero == 99 && c11_local == 7 ? 0 : 1);
	ck_assert_int_ge(pid, 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return (void *)(intptr_t)(WIFEXITED(st) ? WEXITSTATUS(st) : 100);
}

START_TEST(fork_child_keeps_tls)
{
	pthread_t t;
	void *r;
	SPAWN(&t, forker, 0);
	JOIN(t, &r);
	ck_assert_int_eq((int)(intptr_t)r, 0);
}
END_TEST

/* POSIX: a new thread inherits its creator's floating-point environment. */
static void *report_round(void *arg)
{
	return (void *)(intptr_t)fegetround();
}

START_TEST(fp_rounding_inherited)
{
	pthread_t t;
	void *r;
	int old = fegetround();
	ck_assert_int_eq(fesetround(FE_UPWARD), 0);
	SPAWN(&t, report_round, 0);
	JOIN(t, &r);
	fesetround(old);
	ck_assert_int_eq((int)(intptr_t)r, FE_UPWARD);
	ck_assert_int_eq(fesetround(FE_TOWARDZERO), 0);
	SPAWN(&t, report_round, 0);
	JOIN(t, &r);
	fesetround(old);
	ck_assert_int_eq((int)(intptr_t)r, FE_TOWARDZERO);
}
END_TEST

Suite *suite_tls(void)
{
	Suite *s = suite_create("tls");
	TCase *tc = tcase_create("tls");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, initial_values);
	tcase_add_test(tc, counters_across_yields);
	tcase_add_test(tc, counters_across_preemption);
	tcase_add_test(tc, errno_per_thread);
	tcase_add_test(tc, c11_thread_local);
	tcase_add_test(tc, address_while_parked);
	tcase_add_test(tc, from_constructor);
	tcase_add_test(tc, fork_child_keeps_tls);
	tcase_add_test(tc, fp_rounding_inherited);
	suite_add_tcase(s, tc);
	return s;
}
