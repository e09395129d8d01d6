/*
 * check_kernel.c — Check suite: programs that talk to the kernel
 * themselves.  Raw futexes through syscall() (a lock, timeouts, signals,
 * bitsets, requeue, wake-op, futex_waitv, a word shared with a child
 * process), thread ids (gettid, one per thread) and the calls that take
 * one (tgkill, tkill, the sched_* calls).  Every test holds on kernel
 * threads too (1:1), where the kernel answers.
 */
#include "testutil.h"
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/futex.h>

#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449
#endif

/* futex(2) with a timeout as the kernel takes it: on a 32-bit CPU whose
 * time_t outgrew long, the call that takes two 64-bit words (the
 * original SYS_futex takes two longs) */
static long futex(atomic_int *w, int op, int val, const struct timespec *ts, atomic_int *w2, int val3)
{
#ifdef SYS_futex_time64
	int cmd = op & FUTEX_CMD_MASK;
	if (ts && (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET)) {
		long long k[2] = { ts->tv_sec, ts->tv_nsec };
		return syscall(SYS_futex_time64, w, op, val, k, w2, val3);
	}
	if (sizeof(time_t) > sizeof(long)) return syscall(SYS_futex_time64, w, op, val, ts, w2, val3);
#endif
	return syscall(SYS_futex, w, op, val, ts, w2, val3);
}

/* the errno of a call that must fail, or 0 */
static int fails(long r)
{
	return r == -1 ? errno : 0;
}

/* emulated() (testutil.h): under qemu-user kernel threads are slow, and
 * it lacks futex_waitv */

/* ---- every test runs with a second thread alive, parked, so that from
 * the first call on the answers are green's (before a second thread
 * exists every call goes to the kernel, in green mode too) */

static pthread_mutex_t park_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t park_c = PTHREAD_COND_INITIALIZER;
static int park_done;
static pthread_t parked;

static void *park(void *arg)
{
	pthread_mutex_lock(&park_m);
	while (!park_done) pthread_cond_wait(&park_c, &park_m);
	pthread_mutex_unlock(&park_m);
	return arg;
}

static void threads_on(void)
{
	park_done = 0;
	ck_assert_int_eq(pthread_create(&parked, 0, park, 0), 0);
}

static void threads_off(void)
{
	pthread_mutex_lock(&park_m);
	park_done = 1;
	pthread_cond_signal(&park_c);
	pthread_mutex_unlock(&park_m);
	pthread_join(parked, 0);
}

/* ---- a lock as futex(2)'s users write it (Drepper, "Futexes Are
 * Tricky": 0 free, 1 held, 2 held with waiters) */

static void lock(atomic_int *m, int priv)
{
	int c = 0;
	if (atomic_compare_exchange_strong(m, &c, 1)) return;
	if (c != 2) c = atomic_exchange(m, 2);
	while (c) {
		futex(m, FUTEX_WAIT | priv, 2, 0, 0, 0);
		c = atomic_exchange(m, 2);
	}
}

static void unlock(atomic_int *m, int priv)
{
	if (atomic_fetch_sub(m, 1) != 1) {
		atomic_store(m, 0);
		futex(m, FUTEX_WAKE | priv, 1, 0, 0, 0);
	}
}

struct counted {
	atomic_int m;
	int priv, rounds;
	long count;
};

/* a yield inside the critical section: the others find the lock held
 * and wait in the kernel's futex, which must park only them */
static void *lock_yield_worker(void *p)
{
	struct counted *c = p;
	for (int i = 0; i < c->rounds; i++) {
		lock(&c->m, c->priv);
		long v = c->count;
		sched_yield();
		c->count = v + 1;
		unlock(&c->m, c->priv);
	}
	return 0;
}

/* four threads, a million rounds in all (fewer under an emulator, whose
 * kernel threads take milliseconds a wake), private and shared words */
START_TEST(futex_lock_yield)
{
	enum { N = 4 };
	struct counted c = { .priv = _i ? 0 : FUTEX_PRIVATE_FLAG };
	pthread_t t[N];

	c.rounds = (emulated() && !GREEN_MODE ? 5000 : 250000) / (_i ? 10 : 1);
	for (int i = 0; i < N; i++) SPAWN(&t[i], lock_yield_worker, &c);
	for (int i = 0; i < N; i++) JOIN(t[i], 0);
	ck_assert_int_eq(c.count, (long)N * c.rounds);
	ck_assert_int_eq(c.m, 0);
}
END_TEST

/* ---- timeouts and the kernel's answers */

static struct timespec mono_in_ms(long ms)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += ms % 1000 * 1000000L;
	if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
	return ts;
}

static void *timeout_in_thread(void *p)
{
	atomic_int w = 0;
	struct timespec rel = { 0, 20000000 }, at;
	uint64_t t0 = now_ns();

	/* FUTEX_WAIT: relative; WAIT_BITSET: absolute, monotonic or real */
	ck_assert_int_eq(fails(futex(&w, FUTEX_WAIT_PRIVATE, 0, &rel, 0, 0)), ETIMEDOUT);
	ck_assert_slept(t0, 20000000u);
	t0 = now_ns();
	at = mono_in_ms(20);
	ck_assert_int_eq(fails(futex(&w, FUTEX_WAIT_BITSET_PRIVATE, 0, &at, 0, FUTEX_BITSET_MATCH_ANY)), ETIMEDOUT);
	ck_assert_slept(t0, 20000000u);
	t0 = now_ns();
	at = abs_in_ms(20);
	ck_assert_int_eq(fails(futex(&w, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 0, &at, 0,
	                             FUTEX_BITSET_MATCH_ANY)), ETIMEDOUT);
	ck_assert_slept(t0, 20000000u);
	/* a shared word's wait may end early (0: look again), never late */
	t0 = now_ns();
	at = mono_in_ms(20);
	while (!fails(futex(&w, FUTEX_WAIT_BITSET, 0, &at, 0, FUTEX_BITSET_MATCH_ANY))) ;
	ck_assert_int_eq(errno, ETIMEDOUT);
	ck_assert_slept(t0, 20000000u);
	/* past, zero */
	at = (struct timespec){ 0, 0 };
	ck_assert_int_eq(fails(futex(&w, FUTEX_WAIT_BITSET_PRIVATE, 0, &at, 0, FUTEX_BITSET_MATCH_ANY)), ETIMEDOUT);
	ck_assert_int_eq(fails(futex(&w, FUTEX_WAIT_PRIVATE, 0, &at, 0, 0)), ETIMEDOUT);
	return 0;
}

/* every wait in a thread, then in main */
START_TEST(futex_timeouts)
{
	pthread_t t;
	SPAWN(&t, timeout_in_thread, 0);
	JOIN(t, 0);
	timeout_in_thread(0);
}
END_TEST

START_TEST(futex_errors)
{
	atomic_int w[2] = { 5, 0 };
	struct timespec bad = { 0, 1000000000 }, neg = { -1, 0 };
	pthread_t t;

	SPAWN(&t, timeout_in_thread, 0);
	ck_assert_int_eq(fails(futex(&w[0], FUTEX_WAIT_PRIVATE, 4, 0, 0, 0)), EAGAIN);
	ck_assert_int_eq(fails(futex(&w[0], FUTEX_WAIT, 4, 0, 0, 0)), EAGAIN);
	ck_assert_int_eq(fails(futex(&w[0], FUTEX_WAIT_PRIVATE, 5, &bad, 0, 0)), EINVAL);
	ck_assert_int_eq(fails(futex(&w[0], FUTEX_WAIT_PRIVATE, 5, &neg, 0, 0)), EINVAL);
	ck_assert_int_eq(fails(futex((atomic_int *)((char *)w + 2), FUTEX_WAKE_PRIVATE, 1, 0, 0, 0)), EINVAL);
	ck_assert_int_eq(fails(futex(&w[0], FUTEX_WAIT_BITSET_PRIVATE, 5, 0, 0, 0)), EINVAL);
	ck_assert_int_eq(fails(futex(&w[0], FUTEX_WAKE_BITSET_PRIVATE, 1, 0, 0, 0)), EINVAL);
	ck_assert_int_eq(fails(futex(&w[0], FUTEX_WAKE_PRIVATE | FUTEX_CLOCK_REALTIME, 1, 0, 0, 0)), ENOSYS);
	ck_assert_int_eq(fails(futex(&w[0], FUTEX_WAIT_PRIVATE | FUTEX_CLOCK_REALTIME, 5, 0, 0, 0)), ENOSYS);
	ck_assert_int_eq(fails(futex(&w[0], 99, 1, 0, 0, 0)), ENOSYS);
	ck_assert_int_eq(fails(futex(&w[0], FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1, &w[1], 4)), EAGAIN);
	ck_assert_int_eq(fails(futex(&w[0], FUTEX_CMP_REQUEUE_PRIVATE, -1, (void *)1, &w[1], 5)), EINVAL);
	/* nobody waits: nobody woken */
	ck_assert_int_eq(futex(&w[0], FUTEX_WAKE_PRIVATE, INT_MAX, 0, 0, 0), 0);
	ck_assert_int_eq(futex(&w[0], FUTEX_WAKE, 1, 0, 0, 0), 0);
	JOIN(t, 0);
}
END_TEST

/* ---- signals: a handler ends a wait with EINTR, unless it has
 * SA_RESTART and the wait no timeout, which the kernel restarts */

static atomic_int handled;
static void count_handler(int s) { handled++; }

struct sigwaiter {
	atomic_int w, done;
	int timed;
	long r;
	int err;
};

static void *futex_sig_waiter(void *p)
{
	struct sigwaiter *s = p;
	struct timespec ts = { 60, 0 };
	s->r = futex(&s->w, FUTEX_WAIT_PRIVATE, 0, s->timed ? &ts : 0, 0, 0);
	s->err = errno;
	s->done = 1;
	return 0;
}

/* _i: 0 no SA_RESTART, 1 SA_RESTART with a timeout, 2 SA_RESTART and none */
START_TEST(futex_eintr)
{
	struct sigaction sa = { .sa_handler = count_handler, .sa_flags = _i ? SA_RESTART : 0 };
	struct sigwaiter s = { .timed = _i == 1 };
	pthread_t t;

	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, 0), 0);
	handled = 0;
	SPAWN(&t, futex_sig_waiter, &s);
	/* signal until it returns (0, 1) or the handler ran thrice (2) */
	while (!s.done && (_i < 2 || handled < 3)) {
		int was = handled;
		pthread_kill(t, SIGUSR1);   /* (ESRCH on kernel threads once it is gone) */
		while (handled == was && !s.done) usleep(1000);
	}
	if (_i == 2) {
		/* restarted each time: still waiting, or not yet begun */
		s.w = 1;
		while (!s.done) {
			futex(&s.w, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0);
			usleep(1000);
		}
		ck_assert(s.r == 0 || s.err == EAGAIN);
	} else {
		ck_assert_int_eq(s.r, -1);
		ck_assert_int_eq(s.err, EINTR);
	}
	JOIN(t, 0);
	signal(SIGUSR1, SIG_DFL);
}
END_TEST

/* ---- bitsets, wake-op */

struct bitwaiter {
	atomic_int *w;
	unsigned bits;
	atomic_int go, done;
};

static void *bit_waiter(void *p)
{
	struct bitwaiter *b = p;
	while (!b->go) futex(b->w, FUTEX_WAIT_BITSET_PRIVATE, 0, 0, 0, b->bits);
	b->done = 1;
	return 0;
}

/* wake one waiter on w with these bits until *done (a wait may not have
 * begun yet, or may never begin) */
static void wake_until(atomic_int *w, int op, unsigned bits, atomic_int *done)
{
	while (!*done && futex(w, op, 1, 0, 0, bits) != 1) usleep(1000);
}

/* two waiters on one word: a wake with the second's bits wakes only it */
START_TEST(futex_bitsets)
{
	atomic_int w = 0;
	struct bitwaiter a = { &w, 1 }, b = { &w, 6 };
	pthread_t ta, tb;

	SPAWN(&ta, bit_waiter, &a);
	SPAWN(&tb, bit_waiter, &b);
	b.go = 1;
	wake_until(&w, FUTEX_WAKE_BITSET_PRIVATE, 2, &b.done);
	JOIN(tb, 0);
	ck_assert_int_eq(b.done, 1);
	ck_assert_int_eq(a.done, 0);
	a.go = 1;
	wake_until(&w, FUTEX_WAKE_BITSET_PRIVATE, 1, &a.done);
	JOIN(ta, 0);
	ck_assert_int_eq(a.done, 1);
}
END_TEST

#define OP(op, arg, cmp, carg) FUTEX_OP(FUTEX_OP_##op, arg, FUTEX_OP_CMP_##cmp, carg)

struct opwaiter {
	atomic_int w, ready, done;
};

static void *wait_while_zero(void *p)
{
	struct opwaiter *a = p;
	a->ready = 1;
	while (a->w == 0) futex(&a->w, FUTEX_WAIT_PRIVATE, 0, 0, 0, 0);
	a->done = 1;
	return 0;
}

START_TEST(futex_wake_op)
{
	atomic_int w1 = 0, w2 = 10;
	struct opwaiter a = { 0 };
	pthread_t t;

	if (!GREEN_MODE && emulated()) {
		/* qemu-user hands the operation to the host's kernel, which
		 * applies it in the host's byte order */
		fprintf(stderr, "SKIP: futex_wake_op (kernel threads under an emulator)\n");
		return;
	}
	/* the operation on the second word, and no one to wake */
	ck_assert_int_eq(futex(&w1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &w2, OP(ADD, 5, GT, 0)), 0);
	ck_assert_int_eq(w2, 15);
	ck_assert_int_eq(futex(&w1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &w2, OP(ANDN, 4, EQ, 0)), 0);
	ck_assert_int_eq(w2, 11);
	ck_assert_int_eq(futex(&w1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &w2,
	                       FUTEX_OP((FUTEX_OP_OR | FUTEX_OP_OPARG_SHIFT), 4, FUTEX_OP_CMP_EQ, 0)), 0);
	ck_assert_int_eq(w2, 27);
	ck_assert_int_eq(futex(&w1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &w2, OP(XOR, -1, NE, 0)), 0);
	ck_assert_int_eq(w2, ~27);
	/* an unknown operation changes nothing; an unknown comparison
	 * comes after the operation */
	ck_assert_int_eq(fails(futex(&w1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &w2, FUTEX_OP(7, 1, 0, 0))), ENOSYS);
	ck_assert_int_eq(w2, ~27);
	ck_assert_int_eq(fails(futex(&w1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &w2, FUTEX_OP(0, 3, 7, 0))), ENOSYS);
	ck_assert_int_eq(w2, 3);
	/* a waiter on the second word, woken when its old value compares
	 * (once it is about to wait: it waits, or finds the word changed) */
	SPAWN(&t, wait_while_zero, &a);
	while (!a.ready) usleep(1000);
	while (!a.done && futex(&w1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &a.w, OP(SET, 1, EQ, 0)) != 1)
		usleep(1000);
	JOIN(t, 0);
	ck_assert_int_eq(a.w, 1);
}
END_TEST

/* ---- requeue: a condition variable that wakes one waiter and moves
 * the rest onto the mutex word, as glibc's once did */

struct rcv {
	atomic_int m, seq;
	int ready, waiting, through;
};

static void cv_wait(struct rcv *c)
{
	int s = c->seq, v;
	unlock(&c->m, FUTEX_PRIVATE_FLAG);
	futex(&c->seq, FUTEX_WAIT_PRIVATE, s, 0, 0, 0);
	/* woken by the requeue on the mutex word: others may wait there */
	while ((v = atomic_exchange(&c->m, 2))) futex(&c->m, FUTEX_WAIT_PRIVATE, 2, 0, 0, 0);
}

static long cv_broadcast(struct rcv *c)
{
	int s = ++c->seq;
	return futex(&c->seq, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)(long)INT_MAX, &c->m, s);
}

static void *rcv_waiter(void *p)
{
	struct rcv *c = p;
	lock(&c->m, FUTEX_PRIVATE_FLAG);
	c->waiting++;
	while (!c->ready) cv_wait(c);
	c->through++;
	unlock(&c->m, FUTEX_PRIVATE_FLAG);
	return 0;
}

START_TEST(futex_requeue_cond)
{
	enum { N = 8 };
	struct rcv c = { 0 };
	pthread_t t[N];
	long r;

	for (int i = 0; i < N; i++) SPAWN(&t[i], rcv_waiter, &c);
	for (;;) {
		lock(&c.m, FUTEX_PRIVATE_FLAG);
		if (c.waiting == N) break;
		unlock(&c.m, FUTEX_PRIVATE_FLAG);
		usleep(1000);
	}
	c.ready = 1;
	r = cv_broadcast(&c);   /* woken and moved: those already waiting */
	ck_assert_int_ge(r, 0);
	ck_assert_int_le(r, N);
	unlock(&c.m, FUTEX_PRIVATE_FLAG);
	for (int i = 0; i < N; i++) JOIN(t[i], 0);
	ck_assert_int_eq(c.through, N);
}
END_TEST

struct moved {
	atomic_int a, b, eagain;
};

static void *wait_on_a(void *p)
{
	struct moved *m = p;
	if (fails(futex(&m->a, FUTEX_WAIT_PRIVATE, 0, 0, 0, 0)) == EAGAIN) m->eagain++;
	return 0;
}

/* FUTEX_REQUEUE moves the waiters: a wake of the first word then finds
 * none, a wake of the second every one moved */
START_TEST(futex_requeue_moves)
{
	enum { N = 5 };
	struct moved m = { 0 };
	pthread_t t[N];
	long moved;

	for (int i = 0; i < N; i++) SPAWN(&t[i], wait_on_a, &m);
	usleep(20000);     /* most are waiting; a late one finds a changed */
	m.a = 1;
	moved = futex(&m.a, FUTEX_REQUEUE_PRIVATE, 0, (void *)(long)INT_MAX, &m.b, 0);
	ck_assert_int_ge(moved, 0);
	ck_assert_int_eq(futex(&m.a, FUTEX_WAKE_PRIVATE, INT_MAX, 0, 0, 0), 0);
	ck_assert_int_eq(futex(&m.b, FUTEX_WAKE_PRIVATE, INT_MAX, 0, 0, 0), moved);
	for (int i = 0; i < N; i++) JOIN(t[i], 0);
	ck_assert_int_eq(moved + m.eagain, N);
}
END_TEST

/* ---- futex_waitv (Linux 5.16; not under qemu-user) */

struct fwaitv {
	uint64_t val, uaddr;
	uint32_t flags, reserved;
};

struct vwaiter {
	atomic_int w[3];
	long r;
	atomic_int done;
};

static long waitv(struct fwaitv *v, int n, const struct timespec *abs)
{
	long long ts[2];
	if (abs) ts[0] = abs->tv_sec, ts[1] = abs->tv_nsec;
	return syscall(SYS_futex_waitv, v, n, 0, abs ? ts : 0, CLOCK_MONOTONIC);
}

static void vset(struct fwaitv *v, atomic_int *w, int n, int flags)
{
	for (int i = 0; i < n; i++)
		v[i] = (struct fwaitv){ 0, (uintptr_t)&w[i], 2 | flags, 0 };   /* FUTEX2_SIZE_U32 */
}

static void *waitv_waiter(void *p)
{
	struct vwaiter *a = p;
	struct fwaitv v[3];
	vset(v, a->w, 3, 128);   /* FUTEX2_PRIVATE */
	a->r = waitv(v, 3, 0);
	a->done = 1;
	return 0;
}

START_TEST(futex_waitv_any)
{
	struct vwaiter a = { 0 };
	struct fwaitv v[3];
	struct timespec at;
	pthread_t t;

	vset(v, a.w, 3, 128);
	at = mono_in_ms(10);
	if (fails(waitv(v, 3, &at)) == ENOSYS) {
		fprintf(stderr, "SKIP: futex_waitv_any (no futex_waitv in this kernel)\n");
		return;
	}
	ck_assert_int_eq(errno, ETIMEDOUT);
	ck_assert_int_eq(fails(waitv(v, 0, 0)), EINVAL);
	v[1].val = 7;
	ck_assert_int_eq(fails(waitv(v, 3, 0)), EAGAIN);
	v[1].flags = 1;   /* FUTEX2_SIZE_U16: not yet the kernel's */
	ck_assert_int_eq(fails(waitv(v, 3, 0)), EINVAL);
	SPAWN(&t, waitv_waiter, &a);
	wake_until(&a.w[2], FUTEX_WAKE_PRIVATE, 0, &a.done);
	JOIN(t, 0);
	ck_assert_int_eq(a.r, 2);
}
END_TEST

/* ---- a shared word between a parent and a child, each with a thread
 * waiting on it while its main thread goes on */

static void *wait_shared(void *p)
{
	atomic_int *w = p;
	while (*w == 0) futex(w, FUTEX_WAIT, 0, 0, 0, 0);
	return 0;
}

START_TEST(futex_shared_fork)
{
	atomic_int *w = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_t t;
	pid_t pid;
	int st;

	if (!GREEN_MODE && emulated()) {
		fprintf(stderr, "SKIP: futex_shared_fork (1:1 under an emulator: qemu-user fails a thread in the child)\n");
		return;
	}
	ck_assert_ptr_ne(w, MAP_FAILED);
	w[0] = w[1] = 0;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		pthread_t c;
		alarm(60);
		if (pthread_create(&c, 0, wait_shared, &w[0])) _exit(2);
		w[2] = 1;                               /* the parent may go on */
		futex(&w[2], FUTEX_WAKE, 1, 0, 0, 0);
		pthread_join(c, 0);                     /* woken by the parent */
		w[1] = 1;
		futex(&w[1], FUTEX_WAKE, INT_MAX, 0, 0, 0);
		_exit(w[0] == 1 ? 0 : 3);
	}
	SPAWN(&t, wait_shared, &w[1]);              /* woken by the child */
	while (w[2] == 0) futex(&w[2], FUTEX_WAIT, 0, 0, 0, 0);
	w[0] = 1;
	futex(&w[0], FUTEX_WAKE, INT_MAX, 0, 0, 0);
	JOIN(t, 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
	munmap(w, 4096);
}
END_TEST

/* ---- thread ids */

#define NTIDS 1000

struct tids {
	pthread_barrier_t all;
	pid_t tid[NTIDS], raw[NTIDS];
};

struct tid_arg {
	struct tids *s;
	int i;
};

static void *record_tid(void *p)
{
	struct tid_arg *a = p;
	a->s->tid[a->i] = gettid();
	a->s->raw[a->i] = syscall(SYS_gettid);
	pthread_barrier_wait(&a->s->all);   /* every id held at once */
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

/* 1000 threads alive at once each have an id of their own, which no
 * process can hold (green: from 0x400000, beyond every kernel's pid_max) */
START_TEST(tids_unique)
{
	int n = emulated() && !GREEN_MODE ? 100 : NTIDS;
	struct tids *s = malloc(sizeof *s);
	struct tid_arg *a = malloc(n * sizeof *a);
	pthread_t *t = malloc(n * sizeof *t);
	pthread_attr_t attr;

	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(gettid(), getpid());   /* main: the process's first thread */
	ck_assert_int_eq(syscall(SYS_gettid), getpid());
	pthread_barrier_init(&s->all, 0, n + 1);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 65536);
	for (int i = 0; i < n; i++) {
		a[i] = (struct tid_arg){ s, i };
		ck_assert_int_eq(pthread_create(&t[i], &attr, record_tid, &a[i]), 0);
	}
	pthread_barrier_wait(&s->all);
	for (int i = 0; i < n; i++) JOIN(t[i], 0);
	for (int i = 0; i < n; i++) {
		ck_assert_int_eq(s->raw[i], s->tid[i]);
		ck_assert_int_ne(s->tid[i], getpid());
		if (GREEN_MODE) ck_assert_int_ge(s->tid[i], 0x400000);
	}
	qsort(s->tid, n, sizeof *s->tid, cmp_pid);
	for (int i = 1; i < n; i++) ck_assert_int_ne(s->tid[i], s->tid[i - 1]);
	pthread_attr_destroy(&attr);
	pthread_barrier_destroy(&s->all);
	free(t);
	free(a);
	free(s);
}
END_TEST

/* ---- tgkill and tkill reach the one thread they name */

static atomic_int got_tid;
static void record_handler(int s) { got_tid = gettid(); }

struct target {
	atomic_int tid, stop;
};

static void *sleeper(void *p)
{
	struct target *g = p;
	g->tid = gettid();
	while (!g->stop) usleep(1000);
	return 0;
}

START_TEST(tgkill_one_thread)
{
	enum { N = 4 };
	struct sigaction sa = { .sa_handler = record_handler };
	struct target g[N] = { 0 };
	pthread_t t[N];
	cpu_set_t mine, its;
	pid_t gone;

	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGUSR2, &sa, 0), 0);
	for (int i = 0; i < N; i++) SPAWN(&t[i], sleeper, &g[i]);
	for (int i = 0; i < N; i++) while (!g[i].tid) usleep(1000);
	got_tid = 0;
	ck_assert_int_eq(syscall(SYS_tgkill, getpid(), g[2].tid, SIGUSR2), 0);
	while (!got_tid) usleep(1000);
	ck_assert_int_eq(got_tid, g[2].tid);
	got_tid = 0;
	ck_assert_int_eq(syscall(SYS_tkill, g[1].tid, SIGUSR2), 0);
	while (!got_tid) usleep(1000);
	ck_assert_int_eq(got_tid, g[1].tid);
	/* signal 0: is it there; a thread of another process: no such thread */
	ck_assert_int_eq(syscall(SYS_tgkill, getpid(), g[3].tid, 0), 0);
	ck_assert_int_eq(fails(syscall(SYS_tgkill, getppid(), g[3].tid, 0)), ESRCH);
	ck_assert_int_eq(fails(syscall(SYS_tgkill, getpid(), 0, 0)), EINVAL);
	/* the calls that take a thread id: its CPU set is the process's */
	ck_assert_int_eq(sched_getaffinity(0, sizeof mine, &mine), 0);
	ck_assert_int_eq(sched_getaffinity(g[0].tid, sizeof its, &its), 0);
	ck_assert(CPU_EQUAL(&mine, &its));
	ck_assert_int_gt(syscall(SYS_sched_getaffinity, g[0].tid, sizeof its, &its), 0);
	ck_assert_int_eq(pthread_getaffinity_np(t[0], sizeof its, &its), 0);
	ck_assert(CPU_EQUAL(&mine, &its));
	ck_assert_int_eq(sched_setaffinity(g[0].tid, sizeof mine, &mine), 0);
	ck_assert_int_eq(pthread_setaffinity_np(t[0], sizeof mine, &mine), 0);
	if (GREEN_MODE) ck_assert_int_eq(sched_getscheduler(g[0].tid), SCHED_OTHER);   /* musl: ENOSYS */
	ck_assert_int_eq(syscall(SYS_sched_getscheduler, g[0].tid), SCHED_OTHER);
	for (int i = 0; i < N; i++) g[i].stop = 1;
	for (int i = 0; i < N; i++) JOIN(t[i], 0);
	/* an id whose thread is gone names nobody (kernel threads: unless
	 * the kernel gave the id to another thread meanwhile) */
	gone = g[0].tid;
	if (GREEN_MODE) {
		ck_assert_int_eq(fails(syscall(SYS_tgkill, getpid(), gone, 0)), ESRCH);
		ck_assert_int_eq(fails(syscall(SYS_tkill, gone, SIGUSR2)), ESRCH);
		ck_assert_int_eq(fails(sched_getaffinity(gone, sizeof its, &its)), ESRCH);
		ck_assert_int_eq(fails(sched_getscheduler(gone)), ESRCH);
	}
	signal(SIGUSR2, SIG_DFL);
}
END_TEST

/* Once the ids are used up (after about 10^9 creations) the count goes
 * round from the first again, and skips an id a live thread holds.  The
 * counter is green's (tid.c), reached here to come to its end at once. */
extern int __green_tid_next __attribute__((weak)), __green_tid_again __attribute__((weak));

START_TEST(tid_wrap_skips_live)
{
	struct target a = { 0 }, c = { 0 };
	pthread_t ta, tc;
	int next, again;

	SPAWN(&ta, sleeper, &a);
	while (!a.tid) usleep(1000);
	next = __green_tid_next;
	again = __green_tid_again;
	__green_tid_next = 0x3ffffff0;   /* used up */
	__green_tid_again = a.tid;       /* and the round has come to a's id */
	SPAWN(&tc, sleeper, &c);
	while (!c.tid) usleep(1000);
	a.stop = c.stop = 1;
	JOIN(ta, 0);
	JOIN(tc, 0);
	__green_tid_next = next;
	__green_tid_again = again;
	ck_assert_int_eq(c.tid, a.tid + 1);   /* a's skipped; the next was never given */
}
END_TEST

/* fork: the child's one thread has the child's pid for id, whichever
 * thread forked */
static void *fork_and_report(void *p)
{
	pid_t pid = fork(), *out = p;
	int st;
	if (!pid) _exit(gettid() == getpid() && syscall(SYS_gettid) == getpid() ? 0 : 1);
	waitpid(pid, &st, 0);
	*out = WIFEXITED(st) ? WEXITSTATUS(st) : 99;
	return 0;
}

START_TEST(tid_after_fork)
{
	pthread_t t;
	pid_t r = -1;
	SPAWN(&t, fork_and_report, &r);
	JOIN(t, 0);
	ck_assert_int_eq(r, 0);
	fork_and_report(&r);
	ck_assert_int_eq(r, 0);
}
END_TEST

Suite *suite_kernel(void)
{
	Suite *s = suite_create("kernel");
	TCase *tc = tcase_create("kernel");
	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, threads_on, threads_off);
	tcase_add_loop_test(tc, futex_lock_yield, 0, 2);
	tcase_add_test(tc, futex_timeouts);
	tcase_add_test(tc, futex_errors);
	tcase_add_loop_test(tc, futex_eintr, 0, 3);
	tcase_add_test(tc, futex_bitsets);
	tcase_add_test(tc, futex_wake_op);
	tcase_add_test(tc, futex_requeue_cond);
	tcase_add_test(tc, futex_requeue_moves);
	tcase_add_test(tc, futex_waitv_any);
	tcase_add_test(tc, futex_shared_fork);
	tcase_add_test(tc, tids_unique);
	tcase_add_test(tc, tgkill_one_thread);
	tcase_add_test(tc, tid_after_fork);
	if (GREEN_MODE && &__green_tid_next) tcase_add_test(tc, tid_wrap_skips_live);
	suite_add_tcase(s, tc);
	return s;
}
