/*
 * check_thread.c — Check suite: thread.
 *
 * Creation, joining (plain, try, timed), detaching, pthread_exit, names,
 * attributes, scheduling parameters, and the two properties of green
 * mode: all threads run on one kernel thread, and sched_yield is a
 * round robin among them.
 */
#include "testutil.h"
#include <errno.h>
#include <signal.h>
#include <sched.h>
#include <semaphore.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* ---- helpers */

/* A one-shot gate: threads wait until it is opened. */
struct gate {
	pthread_mutex_t m;
	pthread_cond_t c;
	int open;
};
#define GATE_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 }

static void gate_wait(struct gate *g)
{
	pthread_mutex_lock(&g->m);
	while (!g->open) pthread_cond_wait(&g->c, &g->m);
	pthread_mutex_unlock(&g->m);
}

static void gate_open(struct gate *g)
{
	pthread_mutex_lock(&g->m);
	g->open = 1;
	pthread_cond_broadcast(&g->c);
	pthread_mutex_unlock(&g->m);
}

/* Yield until *p reaches v (a real wait: no sleeping, no guessing). */
static void wait_for(int *p, int v)
{
	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) < v) sched_yield();
}

static void *wait_gate(void *arg)
{
	gate_wait(arg);
	return (void *)7;
}

static void *noop(void *arg)
{
	return arg;
}

/* ---- create and join */

static void *triple(void *arg)
{
	return (void *)((intptr_t)arg * 3);
}

/* Each thread's return value reaches its joiner. */
START_TEST(create_join_result)
{
	pthread_t t[4];
	void *r;
	for (intptr_t i = 0; i < 4; i++) SPAWN(&t[i], triple, (void *)(i + 1));
	for (intptr_t i = 0; i < 4; i++) {
		JOIN(t[i], &r);
		ck_assert_int_eq((intptr_t)r, 3 * (i + 1));
	}
}
END_TEST

/* A thousand threads exist at once, and each is joined with its result. */
START_TEST(many_threads)
{
	enum { N = 1000 };
	static pthread_t t[N];
	void *r;
	for (intptr_t i = 0; i < N; i++) SPAWN(&t[i], noop, (void *)(i + 1));
	for (intptr_t i = 0; i < N; i++) {
		JOIN(t[i], &r);
		ck_assert_int_eq((intptr_t)r, i + 1);
	}
}
END_TEST

static void __attribute__((noinline)) finish(void)
{
	pthread_exit((void *)42);
}

static void *exits(void *arg)
{
	finish();
	return 0;   /* not reached */
}

/* pthread_exit from a nested call ends the thread with its value. */
START_TEST(exit_with_value)
{
	pthread_t t;
	void *r = 0;
	SPAWN(&t, exits, 0);
	JOIN(t, &r);
	ck_assert_ptr_eq(r, (void *)42);
}
END_TEST

/* ---- detach */

static struct gate detach_gate = GATE_INIT;
static int detach_done;

static void *detached_body(void *arg)
{
	pthread_attr_t a;
	int ds = -1;
	gate_wait(&detach_gate);
	if (!pthread_getattr_np(pthread_self(), &a)) {
		pthread_attr_getdetachstate(&a, &ds);
		pthread_attr_destroy(&a);
	}
	__atomic_store_n(&detach_done, ds == PTHREAD_CREATE_DETACHED ? 1 : 2, __ATOMIC_RELEASE);
	return 0;
}

/* A running joinable thread can be detached; joining or detaching it
 * again is then refused (green: EINVAL; musl would crash). */
START_TEST(detach_running)
{
	pthread_t t;
	detach_gate.open = 0;
	detach_done = 0;
	SPAWN(&t, detached_body, 0);
	ck_assert_int_eq(pthread_detach(t), 0);
	if (GREEN_MODE) {
		ck_assert_int_eq(pthread_join(t, 0), EINVAL);
		ck_assert_int_eq(pthread_detach(t), EINVAL);
	}
	gate_open(&detach_gate);
	wait_for(&detach_done, 1);
	ck_assert_int_eq(detach_done, 1);   /* it saw itself as detached */
}
END_TEST

/* A thread created detached knows it is, and runs to completion. */
START_TEST(detach_by_attribute)
{
	pthread_attr_t a;
	pthread_t t;
	detach_gate.open = 1;
	detach_done = 0;
	pthread_attr_init(&a);
	ck_assert_int_eq(pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED), 0);
	ck_assert_int_eq(pthread_create(&t, &a, detached_body, 0), 0);
	pthread_attr_destroy(&a);
	wait_for(&detach_done, 1);
	ck_assert_int_eq(detach_done, 1);
}
END_TEST

/* A detached thread that has ended is forgotten cleanly: threads that
 * reuse its stack, and a walk over all threads (pthread_key_create
 * clears the new key in each), work as usual. */
START_TEST(detached_reaped)
{
	pthread_key_t k;
	pthread_t t;
	detach_gate.open = 1;
	detach_done = 0;
	SPAWN(&t, detached_body, 0);
	ck_assert_int_eq(pthread_detach(t), 0);
	wait_for(&detach_done, 1);
	for (int i = 0; i < 4; i++) {
		SPAWN(&t, noop, 0);
		JOIN(t, 0);
	}
	ck_assert_int_eq(pthread_key_create(&k, 0), 0);
	ck_assert_int_eq(pthread_key_delete(k), 0);
}
END_TEST

/* Detached threads that end give their stacks back, without another
 * thread being made or started: two hundred of them wait at a gate, all
 * end, and
 * the process's address space (/proc/self/statm's size, in pages) is
 * about as large as before them (a few stacks kept in a cache). */
static sem_t burst_gate, burst_all;
static int burst_started, burst_done;

static void *burst_member(void *arg)
{
	__atomic_add_fetch(&burst_started, 1, __ATOMIC_ACQ_REL);
	sem_wait(&burst_gate);
	if (__atomic_add_fetch(&burst_done, 1, __ATOMIC_ACQ_REL) == (intptr_t)arg) sem_post(&burst_all);
	return 0;
}

static long vm_pages(void)
{
	long size = -1;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld", &size) != 1) size = -1;
		fclose(f);
	}
	return size;
}

START_TEST(detached_stacks_freed)
{
	enum { N = 200 };
	pthread_attr_t a;
	pthread_t t;
	long before, after, page = sysconf(_SC_PAGESIZE);

	burst_started = burst_done = 0;
	ck_assert_int_eq(sem_init(&burst_gate, 0, 0), 0);
	ck_assert_int_eq(sem_init(&burst_all, 0, 0), 0);
	pthread_attr_init(&a);
	ck_assert_int_eq(pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED), 0);
	ck_assert_int_eq(pthread_attr_setstacksize(&a, 256 * 1024), 0);
	/* stacks of their own, each a mapping that its reap unmaps (a copied
	 * thread's slot is kept, for the next one: copied.c) */
	ck_assert_int_eq(pthread_attr_setstackmode_np(&a, PTHREAD_STACK_SEPARATE_NP), 0);
	before = vm_pages();
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(pthread_create(&t, &a, burst_member, (void *)(intptr_t)N), 0);
	pthread_attr_destroy(&a);
	while (__atomic_load_n(&burst_started, __ATOMIC_ACQUIRE) < N) sched_yield();   /* all at the gate */
	for (int i = 0; i < N; i++) ck_assert_int_eq(sem_post(&burst_gate), 0);
	ck_assert_int_eq(sem_wait(&burst_all), 0);
	sched_yield();   /* the last one ends, if it has not */
	after = vm_pages();
	sem_destroy(&burst_gate);
	sem_destroy(&burst_all);
	ck_assert_int_ge(before, 0);
	/* kept, they would be N * 256 KiB: 50 MiB */
	ck_assert_msg((after - before) * page < 20L << 20,
	              "%ld KiB more after %d detached threads ended", (after - before) * page / 1024, N);
}
END_TEST

/* ---- join errors and variants */

/* Joining oneself is refused (musl 1:1 would hang). */
START_TEST(join_self)
{
	ck_assert_int_eq(pthread_join(pthread_self(), 0), EDEADLK);
	pthread_t t;
	SPAWN(&t, noop, 0);   /* also once green threads exist */
	JOIN(t, 0);
	ck_assert_int_eq(pthread_join(pthread_self(), 0), EDEADLK);
}
END_TEST

static pthread_t mutual_a, mutual_b;
static int mutual_b_created;
static struct mutual { int err, done; void *res; } mutual[2];

/* Join the other one; record what the join said. */
static void *mutual_body(void *arg)
{
	struct mutual *me = arg;
	pthread_t other;
	if (me == &mutual[0]) {
		wait_for(&mutual_b_created, 1);   /* time sliced, A may run first */
		other = mutual_b;
	} else {
		other = mutual_a;
	}
	me->err = pthread_join(other, &me->res);
	__atomic_store_n(&me->done, 1, __ATOMIC_RELEASE);
	return (void *)(intptr_t)me->err;
}

/* Two threads joining each other: the second to join gets EDEADLK, and
 * the first joins it (receiving that result).  Which one comes second is
 * up to the schedule (time slicing), so either order passes. */
START_TEST(join_each_other)
{
	void *r = 0;
	int first;
	memset(mutual, 0, sizeof mutual);
	mutual_b_created = 0;
	SPAWN(&mutual_a, mutual_body, &mutual[0]);
	SPAWN(&mutual_b, mutual_body, &mutual[1]);
	__atomic_store_n(&mutual_b_created, 1, __ATOMIC_RELEASE);
	wait_for(&mutual[0].done, 1);
	wait_for(&mutual[1].done, 1);
	first = mutual[0].err == 0 ? 0 : 1;
	ck_assert_int_eq(mutual[first].err, 0);
	ck_assert_int_eq(mutual[!first].err, EDEADLK);
	ck_assert_int_eq((intptr_t)mutual[first].res, EDEADLK);
	/* the first joined the second; only the first is left to join */
	JOIN(first ? mutual_b : mutual_a, &r);
	ck_assert_int_eq((intptr_t)r, 0);
}
END_TEST

/* tryjoin: EBUSY while the thread runs, 0 with its result once it ended. */
START_TEST(tryjoin)
{
	struct gate g = GATE_INIT;
	pthread_t t;
	void *r = 0;
	int e;
	SPAWN(&t, wait_gate, &g);
	ck_assert_int_eq(pthread_tryjoin_np(t, &r), EBUSY);
	gate_open(&g);
	while ((e = pthread_tryjoin_np(t, &r)) == EBUSY) sched_yield();
	ck_assert_int_eq(e, 0);
	ck_assert_ptr_eq(r, (void *)7);
}
END_TEST

/* timedjoin: ETIMEDOUT after at least the timeout, then 0. */
START_TEST(timedjoin)
{
	struct gate g = GATE_INIT;
	struct timespec at;
	pthread_t t;
	void *r = 0;
	uint64_t t0;
	SPAWN(&t, wait_gate, &g);
	t0 = now_ns();   /* before the deadline is set: a tick may fall between */
	at = abs_in_ms(50);
	ck_assert_int_eq(pthread_timedjoin_np(t, &r, &at), ETIMEDOUT);
	ck_assert_slept(t0, 50000000u);
	gate_open(&g);
	at = abs_in_ms(20000);
	ck_assert_int_eq(pthread_timedjoin_np(t, &r, &at), 0);
	ck_assert_ptr_eq(r, (void *)7);
}
END_TEST

/* ---- identity */

static void *report_self(void *arg)
{
	*(pthread_t *)arg = pthread_self();
	return 0;
}

/* pthread_self in a thread equals the handle its creator got. */
START_TEST(equal_self)
{
	pthread_t t, seen;
	ck_assert(pthread_equal(pthread_self(), pthread_self()));
	SPAWN(&t, report_self, &seen);
	JOIN(t, 0);
	ck_assert(pthread_equal(t, seen));
	ck_assert(!pthread_equal(t, pthread_self()));
}
END_TEST

struct ids {
	pid_t tid;
	char kernel[64];   /* the kernel thread: what /proc/thread-self names */
};

static void ids_of(struct ids *id)
{
	ssize_t n = readlink("/proc/thread-self", id->kernel, sizeof id->kernel - 1);
	id->kernel[n < 0 ? 0 : n] = 0;
	id->tid = gettid();
}

static void *report_tid(void *arg)
{
	ids_of(arg);
	return 0;
}

/* Green: every thread runs on the kernel thread of main.  1:1: each
 * thread is a kernel thread of its own.  Either way each has a thread
 * id of its own (gettid; but for glibc's in the SPARC overlay), and
 * main's is the process's id. */
START_TEST(kernel_threads)
{
	enum { N = 4 };
	pthread_t t[N];
	struct ids id[N], me;
	ids_of(&me);
	for (int i = 0; i < N; i++) SPAWN(&t[i], report_tid, &id[i]);
	for (int i = 0; i < N; i++) JOIN(t[i], 0);
	for (int i = 0; i < N; i++) {
#ifdef __GREEN_OVERLAY__
		/* glibc's gettid() names the kernel thread (docs/ports.md) */
		ck_assert_int_eq(id[i].tid, me.tid);
#else
		ck_assert_int_ne(id[i].tid, me.tid);
		for (int j = 0; j < i; j++) ck_assert_int_ne(id[i].tid, id[j].tid);
#endif
		if (!*me.kernel) continue;   /* no /proc */
		if (GREEN_MODE) ck_assert_str_eq(id[i].kernel, me.kernel);
		else ck_assert_str_ne(id[i].kernel, me.kernel);
	}
	ck_assert_int_eq(getpid(), me.tid);   /* main is the process's first thread */
}
END_TEST

/* Green: pthread_create refuses a null start routine. */
START_TEST(create_null_start)
{
	pthread_t t;
	void *(*volatile none)(void *) = 0;   /* past glibc's nonnull attribute */
	ck_assert_int_eq(pthread_create(&t, 0, none, 0), EINVAL);
}
END_TEST

/* ---- names */

struct name_probe {
	struct gate g;
	char got[32];
	int got_r;
};

static void *name_body(void *arg)
{
	struct name_probe *p = arg;
	gate_wait(&p->g);
	p->got_r = pthread_getname_np(pthread_self(), p->got, sizeof p->got);
	return 0;
}

/* A name set by another thread is what the thread reads; 15 characters
 * fit, 16 do not; a buffer too small for the name gives ERANGE. */
START_TEST(names)
{
	struct name_probe p = { .g = GATE_INIT };
	char buf[32], tiny[4];
	pthread_t t;
	SPAWN(&t, name_body, &p);
	ck_assert_int_eq(pthread_setname_np(t, "worker-1"), 0);
	ck_assert_int_eq(pthread_getname_np(t, buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "worker-1");
	ck_assert_int_eq(pthread_getname_np(t, tiny, sizeof tiny), ERANGE);
	ck_assert_int_eq(pthread_setname_np(t, "0123456789abcdef"), ERANGE);
	ck_assert_int_eq(pthread_setname_np(t, "0123456789abcde"), 0);
	gate_open(&p.g);
	JOIN(t, 0);
	ck_assert_int_eq(p.got_r, 0);
	ck_assert_str_eq(p.got, "0123456789abcde");
}
END_TEST

/* ---- attributes */

struct attr_probe {
	size_t stacksize, guardsize;
	uintptr_t top;
	int detach, r;
	uintptr_t local;
	int mode;                 /* the stack mode pthread_getattr_np reports */
};

static void *attr_body(void *arg)
{
	struct attr_probe *p = arg;
	pthread_attr_t a;
	void *addr;
	int here;
	p->local = (uintptr_t)&here;
	p->r = pthread_getattr_np(pthread_self(), &a);
	if (p->r) return 0;
	pthread_attr_getstack(&a, &addr, &p->stacksize);
	p->top = (uintptr_t)addr + p->stacksize;
	pthread_attr_getguardsize(&a, &p->guardsize);
	pthread_attr_getdetachstate(&a, &p->detach);
	pthread_attr_getstackmode_np(&a, &p->mode);
	pthread_attr_destroy(&a);
	return 0;
}

/* Run attr_body in a thread made with a (then destroyed) into a fresh p. */
static void probe(pthread_attr_t *a, struct attr_probe *p)
{
	pthread_t t;
	memset(p, 0, sizeof *p);
	ck_assert_int_eq(pthread_create(&t, a, attr_body, p), 0);
	pthread_attr_destroy(a);
	JOIN(t, 0);
	ck_assert_int_eq(p->r, 0);
}

/* pthread_getattr_np reports at least the stack and guard asked for,
 * the detach state, and a stack that holds the thread's locals. */
START_TEST(getattr_np)
{
	struct attr_probe p;
	pthread_attr_t a;
	pthread_attr_init(&a);
	ck_assert_int_eq(pthread_attr_setstacksize(&a, 256 * 1024), 0);
	ck_assert_int_eq(pthread_attr_setguardsize(&a, 8192), 0);
	probe(&a, &p);
	ck_assert_uint_ge(p.stacksize, 256 * 1024);
	ck_assert_uint_ge(p.guardsize, 8192);
	ck_assert_int_eq(p.detach, PTHREAD_CREATE_JOINABLE);
	ck_assert_uint_lt(p.local, p.top);
	ck_assert_uint_ge(p.local, p.top - p.stacksize);
}
END_TEST

/* Separate stacks are coloured: the first frames of 64 threads created
 * one after another lie at 64 different 64-byte lines of a 4 KiB span
 * (src/core/stack/separate.c), not at one offset within a page, where they would
 * share the same few cache sets. */
#define COLOURED 64
static pthread_barrier_t colour_bar;

static void *colour_body(void *arg)
{
	int here;
	*(uintptr_t *)arg = (uintptr_t)&here;
	pthread_barrier_wait(&colour_bar);   /* all alive: 64 mappings */
	return 0;
}

START_TEST(stacks_coloured)
{
	pthread_t t[COLOURED];
	uintptr_t local[COLOURED];
	uint64_t seen = 0;
	int distinct = 0;
	const char *mode = getenv("GREEN_STACKS");

	if (mode && !strcmp(mode, "copied")) return;   /* copied stacks are slots, not coloured */
	ck_assert_int_eq(pthread_barrier_init(&colour_bar, 0, COLOURED + 1), 0);
	for (int i = 0; i < COLOURED; i++) SPAWN(&t[i], colour_body, &local[i]);
	pthread_barrier_wait(&colour_bar);
	for (int i = 0; i < COLOURED; i++) {
		JOIN(t[i], 0);
		seen |= (uint64_t)1 << (local[i] >> 6 & 63);
	}
	pthread_barrier_destroy(&colour_bar);
	for (int c = 0; c < 64; c++) distinct += (int)(seen >> c & 1);
	ck_assert_int_eq(distinct, COLOURED);
}
END_TEST

/* A thread runs on a stack the caller provides. */
START_TEST(user_stack)
{
	enum { SIZE = 256 * 1024 };
	struct attr_probe p;
	pthread_attr_t a;
	void *stack;
	ck_assert_int_eq(posix_memalign(&stack, 4096, SIZE), 0);
	pthread_attr_init(&a);
	ck_assert_int_eq(pthread_attr_setstack(&a, stack, SIZE), 0);
	probe(&a, &p);
	ck_assert_uint_ge(p.local, (uintptr_t)stack);
	ck_assert_uint_lt(p.local, (uintptr_t)stack + SIZE);
	free(stack);
}
END_TEST

/* Green: pthread_getattr_np reports the stack asked for exactly, as NPTL
 * does: the attribute's size, ending at the top of the stack (the locals
 * lie inside); a stack the program gave is its region.  Separate and
 * copied stacks (_i); the mode reported is the one the thread got (a
 * stack the program gave is separate). */
START_TEST(getattr_np_echo)
{
	const size_t sizes[] = { PTHREAD_STACK_MIN, 64 * 1024, 64 * 1024 + 4096 };   /* glibc: not a constant */
	int mode = _i ? PTHREAD_STACK_COPIED_NP : PTHREAD_STACK_SEPARATE_NP;
	struct attr_probe p;
	pthread_attr_t a;
	void *stack;

	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		pthread_attr_init(&a);
		ck_assert_int_eq(pthread_attr_setstackmode_np(&a, mode), 0);
		ck_assert_int_eq(pthread_attr_setstacksize(&a, sizes[i]), 0);
		probe(&a, &p);
		ck_assert_uint_eq(p.stacksize, sizes[i]);
		ck_assert_uint_lt(p.local, p.top);
		ck_assert_uint_ge(p.local, p.top - p.stacksize);
		ck_assert_int_eq(p.mode, mode);
	}
	ck_assert_int_eq(posix_memalign(&stack, 4096, PTHREAD_STACK_MIN), 0);
	pthread_attr_init(&a);
	ck_assert_int_eq(pthread_attr_setstack(&a, stack, PTHREAD_STACK_MIN), 0);
	probe(&a, &p);
	ck_assert_int_eq(p.mode, PTHREAD_STACK_SEPARATE_NP);
	ck_assert_uint_eq(p.stacksize, PTHREAD_STACK_MIN);
	ck_assert_uint_eq(p.top, (uintptr_t)stack + PTHREAD_STACK_MIN);
	free(stack);
}
END_TEST

/* A stack deeper than the copied region (1 MiB unless GREEN_COPIED_REGION
 * says otherwise; 8 MiB here) asked for with pthread_attr_setstacksize:
 * the thread is created, has the stack it asked for and can use it — with
 * GREEN_STACKS=copied it gets a separate stack (docs/stacks.md) rather
 * than EINVAL. */
enum { DEEP_STACK = 8 << 20, DEEP_USE = 3 << 20 };

static void *deep_body(void *arg)
{
	struct attr_probe *p = arg;
	volatile char big[DEEP_USE];
	big[0] = 1;
	big[DEEP_USE - 1] = 2;
	attr_body(p);
	return (void *)(intptr_t)(big[0] + big[DEEP_USE - 1]);
}

START_TEST(deep_stack)
{
	struct attr_probe p = { 0 };
	pthread_attr_t a;
	pthread_t t;
	void *res;

	pthread_attr_init(&a);
	ck_assert_int_eq(pthread_attr_setstacksize(&a, DEEP_STACK), 0);
	ck_assert_int_eq(pthread_create(&t, &a, deep_body, &p), 0);
	pthread_attr_destroy(&a);
	JOIN(t, &res);
	ck_assert_int_eq((int)(intptr_t)res, 3);
	ck_assert_int_eq(p.r, 0);
	ck_assert_uint_ge(p.stacksize, DEEP_STACK);
	ck_assert_uint_lt(p.local, p.top);
	ck_assert_uint_ge(p.local, p.top - p.stacksize);
}
END_TEST

/* Green: copied mode named in the attribute with a stack deeper than the
 * region is refused, as docs/man/pthread_attr_setstackmode_np.md says. */
START_TEST(deep_stack_named_copied)
{
	pthread_attr_t a;
	pthread_t t;

	pthread_attr_init(&a);
	ck_assert_int_eq(pthread_attr_setstackmode_np(&a, PTHREAD_STACK_COPIED_NP), 0);
	ck_assert_int_eq(pthread_attr_setstacksize(&a, (size_t)64 << 20), 0);   /* deeper than the region */
	ck_assert_int_eq(pthread_create(&t, &a, noop, 0), EINVAL);
	pthread_attr_destroy(&a);
}
END_TEST

/* fork from a thread while others are parked (with copied stacks their
 * live stacks are in save areas, the forker's in the region): the child
 * finds the forker's locals intact and runs a thread of its own; the
 * parent's parked threads find theirs intact afterwards. */
static struct gate fork_gate = GATE_INIT;
static int fork_parked;

static void *fork_parker(void *arg)
{
	char mine[1500];
	int fill = (int)(intptr_t)arg;
	memset(mine, fill, sizeof mine);
	__atomic_add_fetch(&fork_parked, 1, __ATOMIC_RELEASE);
	gate_wait(&fork_gate);
	for (size_t i = 0; i < sizeof mine; i++)
		if (mine[i] != (char)fill) return (void *)1;
	return 0;
}

static void *fork_child_body(void *arg)
{
	volatile char b[800];
	memset((char *)b, 5, sizeof b);
	return (void *)(intptr_t)(b[3] + (intptr_t)arg);
}

static int fork_mine_ok(const volatile char *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (m[i] != 0x5a) return 0;
	return 1;
}

static void *fork_forker(void *arg)
{
	volatile char mine[3000];
	int st;
	pid_t pid;

	memset((char *)mine, 0x5a, sizeof mine);
	wait_for(&fork_parked, 3);
	pid = fork();
	if (pid == 0) {
		pthread_t t;
		void *r;
		if (!fork_mine_ok(mine, sizeof mine)) _exit(2);
		if (pthread_create(&t, 0, fork_child_body, (void *)10)) _exit(3);
		if (pthread_join(t, &r) || (intptr_t)r != 15) _exit(4);
		_exit(fork_mine_ok(mine, sizeof mine) ? 0 : 5);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid) return (void *)6;
	if (!fork_mine_ok(mine, sizeof mine)) return (void *)7;
	return (void *)(intptr_t)(WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st));
}

START_TEST(fork_while_parked)
{
	pthread_t p[3], f;
	void *r;

	for (intptr_t i = 0; i < 3; i++) SPAWN(&p[i], fork_parker, (void *)(i + 1));
	SPAWN(&f, fork_forker, 0);
	JOIN(f, &r);
	ck_assert_int_eq((int)(intptr_t)r, 0);
	gate_open(&fork_gate);
	for (int i = 0; i < 3; i++) {
		JOIN(p[i], &r);
		ck_assert_ptr_null(r);
	}
}
END_TEST

/* ---- scheduling parameters (green: kept per thread, validated) */

START_TEST(sched_params)
{
	struct gate g = GATE_INIT;
	struct sched_param sp = { .sched_priority = 200 };
	int policy;
	pthread_t t;
	SPAWN(&t, wait_gate, &g);
	ck_assert_int_eq(pthread_setschedparam(t, SCHED_FIFO, &sp), EINVAL);
	sp.sched_priority = 10;
	ck_assert_int_eq(pthread_setschedparam(t, SCHED_FIFO, &sp), 0);
	sp.sched_priority = -1;
	ck_assert_int_eq(pthread_getschedparam(t, &policy, &sp), 0);
	ck_assert_int_eq(policy, SCHED_FIFO);
	ck_assert_int_eq(sp.sched_priority, 10);
	ck_assert_int_eq(pthread_setschedprio(t, 20), 0);
	ck_assert_int_eq(pthread_getschedparam(t, &policy, &sp), 0);
	ck_assert_int_eq(sp.sched_priority, 20);
	gate_open(&g);
	JOIN(t, 0);
}
END_TEST

static void *report_sched(void *arg)
{
	int *got = arg;
	struct sched_param sp;
	pthread_getschedparam(pthread_self(), &got[0], &sp);
	got[1] = sp.sched_priority;
	return 0;
}

/* Green: the process is one kernel thread, so process scheduling is real
 * (musl: ENOSYS).  Aimed at the process itself it acts for the calling
 * thread too, as pthread_setschedparam would; another pid is the
 * kernel's.  SCHED_FIFO needs the kernel's consent: refused (EPERM), the
 * caller keeps its policy. */
START_TEST(process_sched)
{
	struct sched_param sp = { .sched_priority = -1 };
	int got[2], policy;
	pthread_t t;

	ck_assert_int_eq(sched_getscheduler(0), SCHED_OTHER);
	ck_assert_int_eq(sched_getscheduler(getpid()), SCHED_OTHER);
	ck_assert_int_eq(sched_getparam(0, &sp), 0);
	ck_assert_int_eq(sp.sched_priority, 0);
	ck_assert_int_ge(sched_getscheduler(getppid()), 0);
	ck_assert_int_eq(sched_setscheduler(0, SCHED_OTHER, &sp), 0);
	ck_assert_int_eq(sched_setparam(getpid(), &sp), 0);
	sp.sched_priority = 1;
	errno = 0;
	ck_assert_int_eq(sched_setparam(0, &sp), -1);        /* SCHED_OTHER: 0 only */
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(sched_setscheduler(0, 999, &sp), -1);
	ck_assert_int_eq(errno, EINVAL);

	sp.sched_priority = 2;
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		ck_assert_int_eq(errno, EPERM);
		ck_assert_int_eq(sched_getscheduler(0), SCHED_OTHER);
		fprintf(stderr, "SKIP: process_sched with SCHED_FIFO (not permitted here)\n");
		return;
	}
	ck_assert_int_eq(syscall(SYS_sched_getscheduler, 0), SCHED_FIFO);
	ck_assert_int_eq(sched_getscheduler(0), SCHED_FIFO);
	ck_assert_int_eq(pthread_getschedparam(pthread_self(), &policy, &sp), 0);
	ck_assert_int_eq(policy, SCHED_FIFO);
	ck_assert_int_eq(sp.sched_priority, 2);
	sp.sched_priority = 3;
	ck_assert_int_eq(sched_setparam(0, &sp), 0);
	sp.sched_priority = -1;
	ck_assert_int_eq(sched_getparam(getpid(), &sp), 0);
	ck_assert_int_eq(sp.sched_priority, 3);
	SPAWN(&t, report_sched, got);                   /* inherits FIFO 3 */
	JOIN(t, 0);
	ck_assert_int_eq(got[0], SCHED_FIFO);
	ck_assert_int_eq(got[1], 3);
	sp.sched_priority = 0;
	ck_assert_int_eq(sched_setscheduler(0, SCHED_OTHER, &sp), 0);
	ck_assert_int_eq(syscall(SYS_sched_getscheduler, 0), SCHED_OTHER);
	ck_assert_int_eq(pthread_getschedparam(pthread_self(), &policy, &sp), 0);
	ck_assert_int_eq(policy, SCHED_OTHER);
}
END_TEST

/* ---- cooperative round robin (green) */

static char yield_log[64];
static int yield_len;

static void *yielder(void *arg)
{
	for (int i = 0; i < 10; i++) {
		yield_log[yield_len++] = *(char *)arg;
		sched_yield();
	}
	return 0;
}

/* Two threads that yield after each step alternate strictly. */
START_TEST(yield_alternates)
{
	pthread_t a, b;
	yield_len = 0;
	SPAWN(&a, yielder, "A");
	SPAWN(&b, yielder, "B");
	JOIN(a, 0);
	JOIN(b, 0);
	yield_log[yield_len] = 0;
	ck_assert_str_eq(yield_log, "ABABABABABABABABABAB");
}
END_TEST

static void *ret_arg(void *arg)
{
	return arg;
}

/* Every call that takes a pthread_t answers ESRCH for a value that is
 * not a live thread. */
static void expect_esrch(pthread_t t)
{
	struct sched_param sp = { .sched_priority = 0 };
	pthread_attr_t a;
	clockid_t clk;
	char name[16];
	int pol;

	ck_assert_int_eq(pthread_join(t, 0), ESRCH);
	ck_assert_int_eq(pthread_tryjoin_np(t, 0), ESRCH);
	ck_assert_int_eq(pthread_detach(t), ESRCH);
	ck_assert_int_eq(pthread_cancel(t), ESRCH);
	ck_assert_int_eq(pthread_kill(t, 0), ESRCH);
	ck_assert_int_eq(pthread_getschedparam(t, &pol, &sp), ESRCH);
	ck_assert_int_eq(pthread_setschedparam(t, SCHED_OTHER, &sp), ESRCH);
	ck_assert_int_eq(pthread_setschedprio(t, 0), ESRCH);
	ck_assert_int_eq(pthread_getname_np(t, name, sizeof name), ESRCH);
	ck_assert_int_eq(pthread_setname_np(t, "x"), ESRCH);
	ck_assert_int_eq(pthread_getattr_np(t, &a), ESRCH);
	ck_assert_int_eq(pthread_getcpuclockid(t, &clk), ESRCH);
}

/* Green: a joined thread, in either stack mode, and values that never
 * were threads are refused with ESRCH; nothing is dereferenced.  (In
 * 1:1 mode, stock musl's behaviour here is undefined: it may crash.) */
START_TEST(dead_handles_esrch)
{
	pthread_attr_t a;
	pthread_t t;
	int local, mode;

	for (mode = PTHREAD_STACK_SEPARATE_NP; mode <= PTHREAD_STACK_COPIED_NP; mode++) {
		ck_assert_int_eq(pthread_attr_init(&a), 0);
		ck_assert_int_eq(pthread_attr_setstackmode_np(&a, mode), 0);
		ck_assert_int_eq(pthread_create(&t, &a, ret_arg, 0), 0);
		pthread_attr_destroy(&a);
		JOIN(t, 0);
		expect_esrch(t);
	}
	expect_esrch((pthread_t)0);
	expect_esrch((pthread_t)0x12345678);
	expect_esrch((pthread_t)(uintptr_t)-4096);
	expect_esrch((pthread_t)(void *)&local);
	expect_esrch((pthread_t)(void *)expect_esrch);
	/* the live ones still answer */
	ck_assert_int_eq(pthread_kill(pthread_self(), 0), 0);
	ck_assert_int_eq(pthread_create(&t, 0, ret_arg, 0), 0);
	ck_assert_int_eq(pthread_kill(t, 0), 0);
	JOIN(t, 0);
}
END_TEST

Suite *suite_thread(void)
{
	Suite *s = suite_create("thread");
	TCase *tc = tcase_create("thread");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, create_join_result);
	tcase_add_test(tc, many_threads);
	tcase_add_test(tc, exit_with_value);
	tcase_add_test(tc, detach_running);
	tcase_add_test(tc, detach_by_attribute);
	tcase_add_test(tc, detached_reaped);
	tcase_add_test(tc, tryjoin);
	tcase_add_test(tc, timedjoin);
	tcase_add_test(tc, equal_self);
	tcase_add_test(tc, kernel_threads);
	tcase_add_test(tc, names);
	tcase_add_test(tc, getattr_np);
	tcase_add_test(tc, user_stack);
	tcase_add_test(tc, deep_stack);
	tcase_add_test(tc, fork_while_parked);
	if (GREEN_MODE) {
		tcase_add_test(tc, deep_stack_named_copied);
		/* musl 1:1 hangs or crashes on these, or needs privilege */
		tcase_add_test(tc, join_self);
		tcase_add_test(tc, join_each_other);
		tcase_add_test(tc, create_null_start);
		tcase_add_test(tc, sched_params);
		tcase_add_test(tc, process_sched);
		tcase_add_loop_test(tc, getattr_np_echo, 0, 2);
		tcase_add_test(tc, dead_handles_esrch);
		tcase_add_test(tc, stacks_coloured);   /* musl's stacks are not */
		/* kernel threads unmap their own stacks, some time after */
		tcase_add_test(tc, detached_stacks_freed);
	}
	if (cooperative()) tcase_add_test(tc, yield_alternates);
	suite_add_tcase(s, tc);
	return s;
}
