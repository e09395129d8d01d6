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
 * until it leaves (main_gone).  The table grows by mmap, never malloc:
 * insertions happen inside no-preempt sections, where malloc's lock may
 * be held by a preempted thread.  Touched only inside GREEN_ENTER.
 */
#include <errno.h>
#include <sys/mman.h>
#include "gthread.h"
#include "section.h"
#include "lifecycle.h"

static uintptr_t *slot;          /* 0 = empty */
static size_t cap, used;         /* cap: a power of two, or 0 */
static int main_gone;

static size_t hash(uintptr_t a)
{
	a = (a >> 4) * (uintptr_t)0x9e3779b97f4a7c15ull;   /* Fibonacci hashing */
	return (size_t)(a ^ a >> (4 * sizeof a));          /* high bits down */
}

static size_t find(uintptr_t a)
{
	size_t m = cap - 1, i = hash(a) & m;
	while (slot[i] && slot[i] != a) i = (i + 1) & m;
	return i;
}

static int grow(void)
{
	uintptr_t *old = slot;
	size_t n = cap, ncap = cap ? 2 * cap : 512;
	void *p = mmap(0, ncap * sizeof *slot, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) return -1;
	slot = p;
	cap = ncap;
	for (size_t i = 0; i < n; i++)
		if (old[i]) slot[find(old[i])] = old[i];
	if (old) munmap(old, n * sizeof *old);
	return 0;
}

/* Inside GREEN_ENTER.  0, or EAGAIN when no memory is left. */
hidden int __green_registry_add(struct green_thread *t)
{
	if (t == &__green_main) {
		main_gone = 0;
		return 0;
	}
	if (2 * (used + 1) > cap && grow()) return EAGAIN;
	slot[find((uintptr_t)t)] = (uintptr_t)t;
	used++;
	return 0;
}

/* Inside GREEN_ENTER. */
hidden void __green_registry_del(struct green_thread *t)
{
	size_t m = cap - 1, i, j, h;

	if (t == &__green_main) {
		main_gone = 1;
		return;
	}
	if (!cap || !slot[i = find((uintptr_t)t)]) return;
	slot[i] = 0;
	used--;
	/* backward shift: pull later members of the run into the hole */
	for (j = (i + 1) & m; slot[j]; j = (j + 1) & m) {
		h = hash(slot[j]) & m;
		if (((j - h) & m) >= ((j - i) & m)) {
			slot[i] = slot[j];
			slot[j] = 0;
			i = j;
		}
	}
}

/* fork's child: only the caller survives. */
hidden void __green_registry_reset(struct green_thread *self)
{
	if (cap) for (size_t i = 0; i < cap; i++) slot[i] = 0;
	used = 0;
	main_gone = self != &__green_main;
	if (self != &__green_main) __green_registry_add(self);
}

/* A live thread (running, runnable, blocked, or exited and not yet
 * joined), or null.  Reads nothing through p.  One section: a probe
 * preempted half-way could miss a slot that a removal shifts behind it,
 * or read a table that a growth unmaps. */
hidden struct green_thread *__green_lookup(pthread_t p)
{
	uintptr_t a = (uintptr_t)(void *)p;
	struct green_thread *t = 0;

	if (p == gp(&__green_main)) return main_gone ? 0 : &__green_main;
	GREEN_ENTER();
	if (a && cap && slot[find(a)]) t = gt(p);
	GREEN_LEAVE();
	return t;
}
