/*
 * testutil.h — helpers shared by the Check suites and test programs.
 */
#ifndef GREEN_TESTUTIL_H
#define GREEN_TESTUTIL_H

#define _GNU_SOURCE
#include <check.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <stdint.h>

#ifndef __GREEN_THREADS__
#define __GREEN_THREADS__ 0
#endif

/* true when built by green-cc in green mode: one kernel thread */
#define GREEN_MODE (__GREEN_THREADS__ == 1)

/*
 * Stock musl 1.2.3 on m68k (1:1 mode) cannot act on a cancel from its
 * signal handler: __cp_cancel (src/thread/m68k/syscall_cp.s) loads
 * __cancel's offset with "move.l __cancel-.-8,%a1", which assembles to a
 * load from an absolute address, and the cancelled thread dies of
 * SIGSEGV (on hardware as under qemu).  That is the path of an
 * asynchronous cancel and of a cancel that finds its target inside a
 * blocking system call; tests that need it are left out there, each
 * named on stderr.  Green mode does not use that code.  The m68k build
 * defines GREEN_MUSL_CP_CANCEL_BROKEN for the 1:1 runner (tests/include.am).
 */
#if !GREEN_MODE && defined(GREEN_MUSL_CP_CANCEL_BROKEN)
#define MUSL_CP_CANCEL_BROKEN 1
#else
#define MUSL_CP_CANCEL_BROKEN 0
#endif

#include <stdio.h>
#define tcase_add_cp_cancel_test(tc, fn) do { \
	if (MUSL_CP_CANCEL_BROKEN) \
		fprintf(stderr, "SKIP: %s (stock musl's m68k __cp_cancel faults: tests/testutil.h)\n", #fn); \
	else \
		tcase_add_test(tc, fn); \
} while (0)

/* green without time slicing (GREEN_QUANTUM_MS=0): the exact order of a
 * cooperative schedule can be asserted only then */
#include <stdlib.h>
static inline int cooperative(void)
{
	const char *q = getenv("GREEN_QUANTUM_MS");
	return GREEN_MODE && q && !strcmp(q, "0");
}

/* green under GREEN_SCHED (docs/scheduler.md, seeded schedules): any
 * interleaving, no ticks, and a virtual clock for deadlines, so a sleep
 * takes no real time: tests of exact schedules and of elapsed real time
 * do not apply */
static inline int explored(void)
{
	const char *s = getenv("GREEN_SCHED");
	return GREEN_MODE && s && *s;
}

/* run under an emulator (tests/lib.sh's GREEN_RUN: qemu-user, in a
 * cross build), whose own limits some cases must step around */
static inline int emulated(void)
{
	const char *e = getenv("GREEN_RUN");
	return e && *e;
}

/* something preempts a thread that computes without a system call: a
 * kernel scheduler (1:1) or green's tick */
static inline int ticking(void)
{
	return !cooperative() && !explored();
}

static inline int wanted(int argc, char **argv, const char *name)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], name)) return 1;
	return 0;
}

/* CLOCK_MONOTONIC in nanoseconds */
static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* an absolute CLOCK_REALTIME time ms milliseconds from now */
static inline struct timespec abs_in_ms(long ms)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
	return ts;
}

/* at least ns of real time passed since t0 (a sleep's lower bound);
 * not under GREEN_SCHED, whose deadlines are virtual */
#define ck_assert_slept(t0, ns) do { \
	if (!explored()) ck_assert_uint_ge(now_ns() - (t0), (ns)); \
} while (0)

/* create a thread or fail the test */
#define SPAWN(t, fn, arg) ck_assert_int_eq(pthread_create((t), 0, (fn), (arg)), 0)
#define JOIN(t, res) ck_assert_int_eq(pthread_join((t), (res)), 0)

/* A thread of the given policy and priority (explicit, not inherited).
 * A SCHED_FIFO one above the test's SCHED_OTHER thread runs at once and
 * up to where it blocks, so a test can line up waiters in a known order
 * even while ticks run. */
static inline pthread_t spawn_prio(void *(*fn)(void *), int policy, int prio, void *arg)
{
	pthread_attr_t a;
	struct sched_param sp = { .sched_priority = prio };
	pthread_t t;
	ck_assert_int_eq(pthread_attr_init(&a), 0);
	ck_assert_int_eq(pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED), 0);
	ck_assert_int_eq(pthread_attr_setschedpolicy(&a, policy), 0);
	ck_assert_int_eq(pthread_attr_setschedparam(&a, &sp), 0);
	ck_assert_int_eq(pthread_create(&t, &a, fn, arg), 0);
	pthread_attr_destroy(&a);
	return t;
}

#endif
