/*
 * timer.c — deadlines of blocked threads.
 *
 * Every timed wait (sleep, timedlock, timedwait, timedjoin) puts its
 * thread into one binary min-heap keyed by an absolute CLOCK_MONOTONIC
 * deadline in nanoseconds.  Insertion and removal are O(log n); the heap
 * index lives in the descriptor so a thread woken early leaves the heap
 * in O(log n) too.
 *
 * Deadlines given on CLOCK_REALTIME are converted to CLOCK_MONOTONIC when
 * the wait begins: a later step of the wall clock does not move them
 * (documented in docs/scheduler.md).
 */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <sys/mman.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "base/gconfig.h"
#include "base/check.h"
#include "base/report.h"

static struct green_thread **heap;
static size_t heap_len, heap_cap;

/* the heap's new length, and sched_yield's gate saying whether it is
 * empty */
static void heap_gate_set(size_t n)
{
	heap_len = n;
	__green_yield_gate.flag[GREEN_GATE_TIMERS] = n != 0;
}

hidden uint64_t __green_now(void)
{
	if (__green_xmode) return __green_vclock;   /* explore.c */
	return __green_real_now();
}

hidden uint64_t __green_real_now(void)
{
	struct timespec ts;
	__clock_gettime(CLOCK_MONOTONIC, &ts);   /* musl's: the program's clock_gettime may be virtual */
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static uint64_t add_ns(uint64_t base, int64_t delta)
{
	if (delta <= 0) return base + delta > base ? 0 : base + delta;
	if (base + (uint64_t)delta < base) return GREEN_NO_DEADLINE - 1;
	return base + delta;
}

static int64_t ts_ns(const struct timespec *ts)
{
	int64_t sec = ts->tv_sec;   /* 32 bits in some libcs (32-bit glibc) */
	if (sec > INT64_MAX / 1000000000 - 1) return INT64_MAX;
	if (sec < -(INT64_MAX / 1000000000 - 1)) return -INT64_MAX;
	return sec * 1000000000 + ts->tv_nsec;
}

/* Absolute time on clock clk -> monotonic deadline.  *err = EINVAL for a
 * malformed timespec or an unknown clock. */
hidden uint64_t __green_deadline(clockid_t clk, const struct timespec *abs, int *err)
{
	struct timespec now;
	int64_t delta;
	*err = 0;
	if (!abs) return GREEN_NO_DEADLINE;
	if (abs->tv_nsec < 0 || abs->tv_nsec >= 1000000000) {
		*err = EINVAL;
		return 0;
	}
	if (clk == CLOCK_MONOTONIC && !__green_xmode) {
		if (abs->tv_sec < 0) return 0;
		return (uint64_t)ts_ns(abs);
	}
	if (clock_gettime(clk, &now)) {
		*err = EINVAL;
		return 0;
	}
	delta = ts_ns(abs) - ts_ns(&now);   /* under GREEN_SCHED both virtual: exact */
	return add_ns(__green_now(), delta);
}

hidden uint64_t __green_deadline_rel(const struct timespec *rel)
{
	return add_ns(__green_now(), ts_ns(rel));
}

/* The sleeps' wait, a cancellation point: 0 at the deadline, or EINTR
 * after a handler, with *left the time that was left when the signal
 * came (as Linux: not after its handler ran). */
hidden int __green_sleep(uint64_t deadline, uint64_t *left)
{
	uint64_t at;
	int r;

	__green_cancel_point();
	GREEN_ENTER();
	r = GREEN_CP_WAIT(1, __green_wait(0, GW_SLEEP, 0, deadline));
	GREEN_LEAVE();
	if (r == ECANCELED) __green_cancel_point();
	if (r != EINTR) return 0;
	at = __green_cur->intr_at;
	*left = deadline > at ? deadline - at : 0;
	return EINTR;
}

static void put(size_t i, struct green_thread *t)
{
	heap[i] = t;
	t->heap_idx = i + 1;
}

static void sift_up(size_t i)
{
	struct green_thread *t = heap[i];
	while (i) {
		size_t p = (i - 1) / 2;
		if (heap[p]->deadline <= t->deadline) break;
		put(i, heap[p]);
		i = p;
	}
	put(i, t);
}

static void sift_down(size_t i)
{
	struct green_thread *t = heap[i];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= heap_len) break;
		if (c + 1 < heap_len && heap[c + 1]->deadline < heap[c]->deadline) c++;
		if (t->deadline <= heap[c]->deadline) break;
		put(i, heap[c]);
		i = c;
	}
	put(i, t);
}

/*
 * The heap grows by mmap, never malloc: the caller is half-way into a
 * wait (already on its object's queue), and malloc's lock may be held by
 * a thread preempted inside malloc, so a malloc here could park the
 * caller a second time, on the lock word, and tear the first queue.
 *
 * The tick handler reads the heap's first deadline at any instruction,
 * inside no-preempt sections too (tick.c's schedule), so the new array
 * is published before the old one is unmapped: the handler reads one or
 * the other, both whole.  (Unmapping first once let a tick read the old
 * array after it was gone: a SIGSEGV at a page-aligned address, which a
 * thread-pool server met at start-up; tests/prog/heapgrow.c.)
 */
static void grow(void)
{
	size_t cap = heap_cap ? 2 * heap_cap : 64, old_cap = heap_cap;
	struct green_thread **old = heap;
	void *p = mmap(0, cap * sizeof *heap, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {   /* cannot keep the promise of a deadline */
		__green_say("green: out of memory for the timer heap (%zu deadlines)\n", cap);
		abort();
	}
	if (old) memcpy(p, old, heap_len * sizeof *heap);
	heap = p;
	heap_cap = cap;
	green_barrier();   /* published before the old array goes */
	if (old) munmap(old, old_cap * sizeof *heap);
}

hidden void __green_timer_add(struct green_thread *t, uint64_t deadline)
{
	if (heap_len == heap_cap) grow();
	t->deadline = deadline;
	heap[heap_len] = t;
	green_barrier();   /* the tick reads the heap at any instruction: the slot is stored before the length */
	heap_gate_set(heap_len + 1);
	sift_up(heap_len - 1);
}

hidden void __green_timer_del(struct green_thread *t)
{
	size_t i = t->heap_idx - 1;
	t->heap_idx = 0;
	heap_gate_set(heap_len - 1);
	if (heap_len == i) return;
	heap[i] = heap[heap_len];
	heap[i]->heap_idx = i + 1;
	if (i && heap[(i - 1) / 2]->deadline > heap[i]->deadline) sift_up(i);
	else sift_down(i);
}

hidden uint64_t __green_timer_next(void)
{
	return heap_len ? heap[0]->deadline : GREEN_NO_DEADLINE;
}

/* Wake the threads whose deadline is now or past: ahead of their level
 * when front (__green_wake_first), else at its tail. */
hidden void __green_timers_expire(uint64_t now, int front)
{
	while (heap_len && heap[0]->deadline <= now) {
		if (front) __green_wake_first(heap[0], ETIMEDOUT);
		else __green_wake(heap[0], ETIMEDOUT);
	}
}

/* After fork the child keeps only its caller: forget everyone else. */
hidden void __green_timers_reset(void)
{
	heap_gate_set(0);
}

/* GREEN_DEBUG (check.h): every entry knows its place, waits, and is
 * due no sooner than its parent */
hidden void __green_timers_check(void)
{
	for (size_t i = 0; i < heap_len; i++) {
		struct green_thread *t = heap[i];
		green_check(t, t && t->magic == GREEN_MAGIC, "an entry of the timer heap", "a dead or overwritten descriptor", "a live thread");
		green_check(t, t->heap_idx == i + 1, "its place in the timer heap", "another index", "its own");
		green_check(t, t->state == GS_BLOCKED, "its state in the timer heap", __green_state_name(t->state), "BLOCKED");
		green_check(t, !i || heap[(i - 1) / 2]->deadline <= t->deadline, "the timer heap's order",
		            "a deadline before its parent's", "no sooner than its parent's");
	}
}
