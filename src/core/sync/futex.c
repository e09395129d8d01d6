/*
 * futex.c — waiting on an address, the green futex.
 *
 * musl's internal locks (__lock, FILE locks, __wait/__timedwait users)
 * are words in memory that a thread waits on "while *addr == val".  Here
 * a waiter is queued in one of a fixed number of buckets chosen by the
 * address; a wake scans that bucket for threads waiting on the same
 * address.  The check of *addr and the enqueue happen inside one
 * no-preempt section, so a wake cannot slip between them.
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

hidden int __green_futex_wake(const volatile void *addr, int n)
{
	struct gq *q = bucket_of(addr);
	struct green_thread *t, *next;
	int woken = 0;

	GREEN_ENTER();
	for (t = q->head; t && n; t = next) {
		next = t->q_next;
		if (t->waddr != addr) continue;
		__green_wake(t, 0);
		woken++;
		n--;
	}
	GREEN_LEAVE();
	return woken;
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
