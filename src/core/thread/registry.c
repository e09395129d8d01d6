/*
 * registry.c — the set of live thread descriptors, so that a pthread_t
 * can be checked before anything reads through it.
 *
 * A pthread_t is a descriptor's address.  One that was joined, or was
 * never a thread, may point at freed memory (a copied thread's
 * descriptor is malloc'd and freed), at an unmapped page or at nothing;
 * reading a magic number through it could fault.  The registry answers
 * from its own memory only: an open-addressing hash set of addresses,
 * linear probing, at most half full, deletion by backward shift (no
 * tombstones), so a lookup costs one hash and a probe or two.
 *
 * A descriptor enters at pthread_create and leaves when it stops being
 * a valid target: when it is joined, detached after exiting, or exits
 * detached.  The initial thread's descriptor is static and needs no slot
 * until it leaves (main_gone).  The table starts as a static one of
 * 512 slots (256 threads) and grows by mmap, never malloc: insertions
 * happen inside no-preempt sections, where malloc's lock may be held by
 * a preempted thread.  Touched only inside GREEN_ENTER.
 */
#include <errno.h>
#include <sys/mman.h>
#include "base/gthread.h"
#include "base/section.h"
#include "thread/lifecycle.h"

#define FIRST_CAP 512

static uintptr_t first[FIRST_CAP];   /* the table until it outgrows it */
static uintptr_t *slot = first;      /* 0 = empty */
static size_t mask = FIRST_CAP - 1;  /* the table's size (a power of two) less 1 */
static size_t room = FIRST_CAP / 2;  /* members it takes before it grows: half its size, less those in it */
static unsigned shift = 8 * sizeof(uintptr_t) - 9;   /* bits of the address width less log2(size) */
static int main_gone;

/* Fibonacci hashing: the product's high bits, as many as index the table */
static size_t hash(uintptr_t a)
{
	const uintptr_t k = sizeof a > 4 ? (uintptr_t)0x9e3779b97f4a7c15ull : (uintptr_t)0x9e3779b9u;
	return (size_t)(a * k >> shift);
}

static size_t find(uintptr_t a)
{
	size_t i = hash(a);
	while (slot[i] && slot[i] != a) i = (i + 1) & mask;
	return i;
}

/* a member into its slot, which it records */
static void put(uintptr_t a)
{
	size_t i = find(a);
	slot[i] = a;
	((struct green_thread *)a)->reg_at = i;
}

static __attribute__((noinline)) int grow(void)
{
	uintptr_t *old = slot;
	size_t n = mask + 1, ncap = 2 * n;
	void *p = mmap(0, ncap * sizeof *slot, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) return -1;
	slot = p;
	mask = ncap - 1;
	room += n / 2;
	shift--;
	for (size_t i = 0; i < n; i++)
		if (old[i]) put(old[i]);
	if (old != first) munmap(old, n * sizeof *old);
	return 0;
}

/* Inside GREEN_ENTER: a new thread (never the initial one).  0, or
 * EAGAIN when no memory is left. */
hidden int __green_registry_add(struct green_thread *t)
{
	if (!room && grow()) return EAGAIN;
	put((uintptr_t)t);
	room--;
	return 0;
}

/* Inside GREEN_ENTER. */
hidden void __green_registry_del(struct green_thread *t)
{
	size_t m = mask, i, j, h;

	if (t == &__green_main) {
		main_gone = 1;
		return;
	}
	i = t->reg_at;
	if (i > m || slot[i] != (uintptr_t)t) return;   /* not a member */
	slot[i] = 0;
	room++;
	/* backward shift: pull later members of the run into the hole */
	for (j = (i + 1) & m; slot[j]; j = (j + 1) & m) {
		h = hash(slot[j]);
		if (((j - h) & m) >= ((j - i) & m)) {
			slot[i] = slot[j];
			((struct green_thread *)slot[i])->reg_at = i;
			slot[j] = 0;
			i = j;
		}
	}
}

/* fork's child: only the caller survives. */
hidden void __green_registry_reset(struct green_thread *self)
{
	for (size_t i = 0; i <= mask; i++) slot[i] = 0;
	room = (mask + 1) / 2;
	main_gone = self != &__green_main;
	if (self != &__green_main) __green_registry_add(self);
}

/* Inside GREEN_ENTER: a live thread (running, runnable, blocked, or
 * exited and not yet joined), or null.  Reads nothing through p.  One
 * section: a probe preempted half-way could miss a slot that a removal
 * shifts behind it, or read a table that a growth unmaps. */
hidden struct green_thread *__green_registered(pthread_t p)
{
	if (p == gp(&__green_main)) return main_gone ? 0 : &__green_main;
	return slot[find((uintptr_t)(void *)p)] ? gt(p) : 0;   /* 0 is never a member */
}

/* The same, in a section of its own. */
hidden struct green_thread *__green_lookup(pthread_t p)
{
	struct green_thread *t;

	GREEN_ENTER();
	t = __green_registered(p);
	GREEN_LEAVE();
	return t;
}
