/*
 * pshared.c — waiting on a word of a process-shared object.
 *
 * A process-shared mutex, condition variable, rwlock or barrier lives in
 * memory that several processes map (mmap MAP_SHARED, shm_open), each
 * perhaps at another address and each running green threads of its own.
 * Everything such an object needs is in its own words: no pointer to a
 * thread descriptor or a queue, which the other processes could not
 * follow.  Those words are kernel futex words, used the usual way: a
 * thread that must wait parks while "*w == val", and whoever changes the
 * word wakes the waiters.  What is green about it is who sleeps:
 *
 *   a waiter   parks greenly on the process's list of shared waits
 *              (this file), so its process keeps running its other
 *              threads.  It leaves the list when
 *                - a thread of its own process changes the word and
 *                  wakes it (__green_pshared_wake scans the list);
 *                - the process is idle and the kernel reports a wake
 *                  (FUTEX_WAKE from another process) or a changed word:
 *                  the idle path of the scheduler waits with futex_waitv
 *                  on every awaited word at once (__green_pshared_idle);
 *                - its re-check deadline passes (1, 2, then 4 ms): the
 *                  backstop while its process is busy running other
 *                  threads, and where futex_waitv is missing (qemu-user,
 *                  kernels before 5.16).
 *              Every wake means "look again": callers loop.
 *   a waker    wakes this process's waiters greenly, and asks the kernel
 *              (FUTEX_WAKE, not private) to wake the rest only when the
 *              object says other waiters may exist.
 *
 * Trade-offs (measured in docs/sync.md): an idle process notices a
 * wake from another process as fast as the kernel wakes a futex waiter;
 * a busy one within its re-check interval.  The idle futex wait cannot
 * also watch descriptors: while threads wait on descriptors too, the
 * scheduler's ordinary poll runs and shared waits rely on re-checks.  A
 * signal caught during the idle futex wait normally interrupts it; one
 * that lands just before it starts, or whose handler asked for
 * SA_RESTART, is dispatched at the end of that wait, at most one
 * re-check interval later.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "sync/addrwait.h"
#include "sync/sync.h"
#include "base/ktime.h"

#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449      /* the same number on every architecture */
#endif
#define PS_FUTEX_WAKE 1
#define PS_SIZE_U32 2            /* FUTEX2_SIZE_U32 */
#define PS_MAX 128               /* FUTEX_WAITV_MAX */

struct ps_waitv {
	uint64_t val, uaddr;
	uint32_t flags, reserved;
};

hidden struct gq __green_pshared_q;   /* threads waiting on a shared word */
static int no_waitv;                  /* futex_waitv is missing here */

/* Inside no critical section: park while *w == val, until woken, the
 * deadline, or the next re-check.  0 (look again), ETIMEDOUT, EINTR,
 * ECANCELED (the caller marked itself a cancellation point). */
hidden int __green_pshared_wait(volatile int *w, int val, uint64_t deadline,
                                enum gwait kind, const void *obj, unsigned *step)
{
	struct green_thread *self = __green_cur;
	uint64_t at;
	int r = 0;

	at = __green_retry_at(step, deadline);
	GREEN_ENTER();
	if (green_cancel_due(self)) {
		r = ECANCELED;
	} else if (*w == val) {
		self->waddr = w;
		self->wait_aux = (void *)(intptr_t)val;
		r = __green_wait(&__green_pshared_q, kind, obj, at);
		self->waddr = 0;
		self->wait_aux = 0;
		if (r == ETIMEDOUT && at < deadline) r = 0;
	}
	GREEN_LEAVE();
	return r;
}

/* Wake up to n of this process's waiters on w whose bits match (a raw
 * FUTEX_WAKE_BITSET, kfutex.c; ~0 for any): how many were woken. */
hidden int __green_pshared_wake_bits(const volatile void *w, int n, unsigned bits)
{
	struct green_thread *t, *next;
	int k = 0;

	GREEN_ENTER();
	for (t = __green_pshared_q.head; t && k < n; t = next) {
		next = t->q_next;
		if (t->waddr != w || (t->wbits && !(t->wbits & bits))) continue;
		__green_wake(t, 0);
		k++;
	}
	GREEN_LEAVE();
	return k;
}

/* Wake up to n waiters on w: this process's greenly; if fewer than n were
 * here and others may wait (another process), through the kernel. */
hidden void __green_pshared_wake(volatile int *w, int n, int others)
{
	int k = __green_pshared_wake_bits(w, n, ~0u);
	if (others && k < n) __syscall(SYS_futex, w, PS_FUTEX_WAKE, n - k);
}

hidden int __green_pshared_waiting(void)
{
	return !gq_empty(&__green_pshared_q);
}

/* Inside GREEN_ENTER: wake the waiters whose word changed, and those on
 * the word the kernel woke (woken, or 0), whose waker may not have
 * changed it. */
static void wake_changed(const volatile void *woken)
{
	struct green_thread *t, *next;

	for (t = __green_pshared_q.head; t; t = next) {
		next = t->q_next;
		if (t->waddr == woken || *(const volatile int *)t->waddr != (int)(intptr_t)t->wait_aux)
			__green_wake(t, 0);
	}
}

/*
 * The scheduler is idle (poll.c, with every signal blocked and the mask
 * to wait with in `mask`), threads wait on shared words and
 * none on descriptors: sleep in the kernel on all those words at once,
 * until one is woken or changes, the deadline passes or a signal comes.
 */
hidden int __green_pshared_idle(uint64_t deadline, const uint64_t *mask)
{
	struct ps_waitv v[PS_MAX];
	struct green_thread *t;
	const void *woken = 0;   /* the word futex_waitv says was woken */
	struct timespec ts;
	long long kts[2];
	uint64_t all = -1;
	unsigned n = 0;
	int r;

	GREEN_ENTER();
	for (t = __green_pshared_q.head; t && n < PS_MAX; t = t->q_next)
		v[n++] = (struct ps_waitv){ (uint32_t)(intptr_t)t->wait_aux, (uintptr_t)t->waddr, PS_SIZE_U32, 0 };
	/* relative first: the deadline may be on green's virtual clock
	 * (GREEN_SCHED), futex_waitv wants real monotonic time */
	uint64_t now = __green_now(), d = deadline > now ? deadline - now : 0;
	ts.tv_sec = d / 1000000000u;
	ts.tv_nsec = d % 1000000000u;
	if (no_waitv || !n) {
		r = __syscall(GREEN_SYS_PPOLL, 0, 0,
		              green_k_ts(deadline == GREEN_NO_DEADLINE ? 0 : &ts, kts),
		              mask, _NSIG / 8);
	} else {
		if (mask)
			__syscall(SYS_rt_sigprocmask, SIG_SETMASK, mask, 0, _NSIG / 8);
		d += __green_real_now();
		kts[0] = d / 1000000000u;
		kts[1] = d % 1000000000u;
		r = __syscall(SYS_futex_waitv, v, n, 0,
		              deadline == GREEN_NO_DEADLINE ? 0 : kts, CLOCK_MONOTONIC);
		if (mask)
			__syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, 0, _NSIG / 8);
		if (r == -ENOSYS) no_waitv = 1;
		if (r >= 0 && (unsigned)r < n) woken = (const void *)(uintptr_t)v[r].uaddr;
	}
	wake_changed(woken);
	GREEN_LEAVE();
	return r == -EINTR ? r : 0;
}

static int pid;

/* The process's pid, which is also its one kernel thread's tid. */
hidden int __green_pshared_pid(void)
{
	if (!pid) pid = __syscall(SYS_getpid);
	return pid;
}

/* In a forked child (before any handler of the program runs): only the
 * caller is left, and it is running; the pid and the robust list are the
 * child's own now. */
hidden void __green_pshared_reset(void)
{
	__green_pshared_q.head = __green_pshared_q.tail = 0;
	pid = 0;
	__green_pmutex_reset();
}
