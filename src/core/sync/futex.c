/*
 * futex.c — waiting on an address, the green futex.
 *
 * musl's internal locks (__lock, FILE locks, __wait/__timedwait users)
 * are words in memory that a thread waits on "while *addr == val".  Here
 * a waiter is queued in one of a fixed number of buckets chosen by the
 * address; a wake scans that bucket for threads waiting on the same
 * address.  The check of *addr and the enqueue happen inside one
 * no-preempt section, so a wake cannot slip between them.  The raw
 * futex calls of a program (kfutex.c) wait here too, and add what the
 * kernel's futex has beyond this: a bitset per waiter (wbits) and the
 * move of waiters from one word to another (requeue).
 */
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "sync/addrwait.h"

#define NBUCKET 64

static struct gq bucket[NBUCKET];

static struct gq *bucket_of(const volatile void *addr)
{
	uintptr_t a = (uintptr_t)addr;
	return &bucket[(a >> 3 ^ a >> 9) % NBUCKET];
}

/* Returns 0 when woken (or *addr != val on entry), ETIMEDOUT, EINTR. */
hidden int __green_futex_wait(const volatile void *addr, int val, uint64_t deadline, enum gwait kind)
{
	int r = 0;
	GREEN_ENTER();
	if (*(const volatile int *)addr == val) {
		__green_cur->waddr = addr;
		r = __green_wait(bucket_of(addr), kind, (const void *)addr, deadline);
		__green_cur->waddr = 0;
	}
	GREEN_LEAVE();
	return r;
}

/* Does t's wait accept a wake for these bits (FUTEX_WAKE_BITSET)?  A
 * wait that gave none (musl's locks, FUTEX_WAIT) accepts every wake. */
static inline int bits_match(const struct green_thread *t, unsigned bits)
{
	return !t->wbits || (t->wbits & bits);
}

/* Wake up to n waiters on addr whose bits match: how many were woken. */
hidden int __green_futex_wake_bits(const volatile void *addr, int n, unsigned bits)
{
	struct gq *q = bucket_of(addr);
	struct green_thread *t, *next;
	int woken = 0;

	GREEN_ENTER();
	for (t = q->head; t && n; t = next) {
		next = t->q_next;
		if (t->waddr != addr || !bits_match(t, bits)) continue;
		__green_wake(t, 0);
		woken++;
		n--;
	}
	GREEN_LEAVE();
	return woken;
}

hidden int __green_futex_wake(const volatile void *addr, int n)
{
	return __green_futex_wake_bits(addr, n, ~0u);
}

/*
 * Wake up to nwake waiters on from, then move up to nmove more to wait
 * on to instead, still blocked, their deadlines kept (a condition
 * variable's broadcast that wakes one and queues the rest on the mutex,
 * FUTEX_CMP_REQUEUE): how many were woken or moved.
 */
hidden int __green_futex_requeue(const volatile void *from, const volatile void *to, int nwake, int nmove)
{
	struct gq *q = bucket_of(from), *dst = bucket_of(to);
	struct green_thread *t, *next, *moved = 0, *last = 0;
	int done = 0;

	GREEN_ENTER();
	for (t = q->head; t && (nwake || nmove); t = next) {
		next = t->q_next;
		if (t->waddr != from) continue;
		done++;
		if (nwake) {
			nwake--;
			__green_wake(t, 0);
			continue;
		}
		nmove--;
		if (from == to) continue;
		/* off this bucket now, onto the other once the walk is over:
		 * the two may be one bucket */
		__gq_remove(t);
		t->waddr = to;
		t->wait_obj = (const void *)to;
		t->q_next = 0;
		if (last) last->q_next = t;
		else moved = t;
		last = t;
	}
	for (t = moved; t; t = next) {
		next = t->q_next;
		__gq_push(dst, t);
	}
	GREEN_LEAVE();
	return done;
}

/*
 * A lock word that holds its owner's id (never 0), with `flag` set once
 * somebody had to wait: musl's internal locks, FILE locks and spin locks
 * are all this.  Taking and testing the word is one no-preempt section.
 */
hidden void __green_word_lock(volatile int *w, int me, int flag)
{
	int owner, waited = 0;

	GREEN_ENTER();
	while ((owner = *w)) {
		*w = owner | flag;
		__green_futex_wait(w, owner | flag, GREEN_NO_DEADLINE, GW_ADDR);
		waited = 1;
	}
	*w = waited ? me | flag : me;   /* others may still wait behind us */
	GREEN_LEAVE();
}

/*
 * Reading and clearing the word is one no-preempt section too: a tick
 * between the read and the store would let a contender set `flag` and
 * park after we read the word without it, and nobody would wake it.
 */
hidden void __green_word_unlock(volatile int *w, int flag)
{
	GREEN_ENTER();
	int old = *w;
	*w = 0;
	if (old & flag) __green_futex_wake(w, 1);
	GREEN_LEAVE();
}

hidden void __green_futex_reset(void)
{
	for (int i = 0; i < NBUCKET; i++) bucket[i].head = bucket[i].tail = 0;
}
