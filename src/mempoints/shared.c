/*
 * shared.c — which memory more than one thread has touched, and the
 * scheduling point at an access to it.
 *
 * Granularity is the page: a table maps each page number the program's
 * instrumented code has touched to the id of the first thread that
 * touched it, or to SHARED once a second thread has.  An access to a
 * shared page is a scheduling point (explore.c's __green_explore_point:
 * under random a switch one time in FINE_ODDS, under PCT a step); an
 * access to a page only its toucher has seen costs a lookup.  A thread's
 * own stack and the memory it alone allocated and used stay private, so
 * points are offered where another thread can see the effect — not at
 * every access (the dilution of one point per basic block).
 *
 * First touches.  A race on memory no other thread has touched yet would
 * offer no point at all: in `int v = x; x = v + 1;` run by two threads
 * on a global main never touched, the first thread's load and store are
 * both accesses to a page only it has seen.  So the first access to a
 * page — by the first thread to touch it, and by the second, the one
 * that makes it shared — is followed by a full scheduling point, taken
 * before the thread's next access (an entry point runs before its
 * access, so "after the first" is "before the next"; a switch away in
 * between, at a library call, pays the debt instead).  Another thread may then
 * run and touch the page: from there every access to it by either is a
 * point, and the load and the store of the first thread can be split.
 * This costs one point per page, not one per access: a program that
 * touches a few hundred pages makes a few hundred more steps.
 *
 * Reproducibility: the table is exact (no hash collision makes a page
 * shared), and a page's sharing depends only on which thread touched it
 * first, which the schedule fixes.  Where objects fall on pages must not
 * depend on the address-space layout the kernel randomises either: the
 * program is static and not position-independent, and mmap and brk move
 * by whole pages, but the initial stack starts at a random offset within
 * a page, and programs hand addresses in main's frame to their threads.
 * A page of the initial stack is therefore keyed by its distance from
 * the initial stack's anchor (the auxiliary vector, whose distance from
 * main's frame is fixed for a given argument and environment count), not
 * by its address: the same objects share a key from run to run.  With
 * copied stacks every thread runs at the same stack addresses, so the
 * stack's pages become shared too: more points, still reproducible.
 *
 * Spinning: a thread that makes SPIN_POLLS accesses in a row that only
 * polled memory (loads, failed compare-and-swaps), shared or not yet,
 * without a store, is waiting for another thread, as one that calls
 * sched_yield says it is: under PCT it is demoted the same way
 * (explore.c), and in both modes it reaches a full scheduling point.
 * Otherwise a `while (!flag)` loop would run alone for ever — of high
 * priority under PCT, or on a page no other thread has touched yet (no
 * point at all) in either mode.
 *
 * The table: open addressing with linear probing, keys page + 1 (0 is an
 * empty slot), grown by doubling at half full.  Its memory comes from
 * mmap, not malloc (whose lock is itself a scheduling point).  The last
 * page looked up is cached.  Touched only by the running thread, with no
 * switch inside (the point comes after the update).
 */
#include <sys/mman.h>
#include "base/gthread.h"
#include "base/seam.h"
#include "base/gconfig.h"
#include "mempoints.h"

#define PAGE_SHIFT 12
#define SHARED 0xffffffffu
#define INITIAL (1u << 14)
#define SPIN_POLLS 1000
#define MAIN_STACK_SPAN (64ul << 20)     /* below the anchor: main's stack */
#define MAIN_STACK_KEY (1ul << 62)       /* above every page number + 1 */

struct slot {
	uintptr_t key;       /* page number + 1, 0 = empty */
	uint32_t owner;      /* first toucher's thread id, or SHARED */
};

static struct slot *table;
static size_t cap, used;
static uintptr_t last_lo;         /* the first address of the last key's page */
static struct slot *last;         /* its slot, 0 when none */
static uint32_t poller;          /* the thread of the current run of polls */
static unsigned polls;
static uint32_t after_first;     /* the thread that owes a point after a first touch */
static uintptr_t anchor;         /* the initial stack's anchor, once known */

static size_t hash(uintptr_t k)
{
	uint64_t h = (uint64_t)k * 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 20);
}

static struct slot *alloc(size_t n)
{
	void *p = mmap(0, n * sizeof(struct slot), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? 0 : p;
}

static struct slot *probe(struct slot *t, size_t n, uintptr_t key)
{
	size_t i = hash(key) & (n - 1);
	while (t[i].key && t[i].key != key) i = (i + 1) & (n - 1);
	return &t[i];
}

/* Double the table; 0 when out of memory (the access is then no point). */
static int grow(void)
{
	size_t n = cap ? 2 * cap : INITIAL;
	struct slot *t = alloc(n);

	if (!t) return 0;
	for (size_t i = 0; i < cap; i++)
		if (table[i].key) *probe(t, n, table[i].key) = table[i];
	if (table) munmap(table, cap * sizeof(struct slot));
	table = t;
	cap = n;
	last = 0;
	return 1;
}

/* The table's key of an address: its page number + 1, or for the
 * initial stack the page of its distance below the anchor (see above);
 * *lo the first address of that page. */
static uintptr_t key_of(uintptr_t a, uintptr_t *lo)
{
	uintptr_t k;
	if (!anchor) anchor = (uintptr_t)green_initial_stack_addr();
	if (a <= anchor && anchor - a < MAIN_STACK_SPAN) {
		k = (anchor - a) >> PAGE_SHIFT;
		*lo = anchor - (k << PAGE_SHIFT) - ((1ul << PAGE_SHIFT) - 1);
		return MAIN_STACK_KEY | k;
	}
	*lo = a & -(1ul << PAGE_SHIFT);
	return (a >> PAGE_SHIFT) + 1;
}

hidden void __green_mp_touch(const volatile void *addr, int poll)
{
	uintptr_t a = (uintptr_t)addr, key, lo;
	uint32_t me = __green_cur->id;
	struct slot *s;

	if (after_first) {
		/* the point owed by a first touch, before this next access;
		 * another thread's debt was paid by the switch that ran us */
		int mine = after_first == me;
		after_first = 0;
		if (mine) __green_explore_point(0);
	}

	if (!poll || poller != me) {
		poller = me;
		polls = 0;
	} else if (++polls == SPIN_POLLS) {
		polls = 0;
		__green_explore_yielded();
		__green_explore_point(0);
	}
	if (last && a - last_lo < (1ul << PAGE_SHIFT)) {
		s = last;
	} else {
		key = key_of(a, &lo);
		if (2 * (used + 1) > cap && !grow()) return;
		s = probe(table, cap, key);
		if (!s->key) {   /* the first touch of the page */
			s->key = key;
			s->owner = me;
			used++;
			after_first = me;
			__green_explore_touched();
		}
		last_lo = lo;
		last = s;
	}
	if (s->owner == me) return;
	if (s->owner != SHARED) {   /* the second thread's first touch */
		s->owner = SHARED;
		after_first = me;
		__green_explore_touched();
	}
	if (__green_xmode == GREEN_SCHED_POS)
		__green_explore_access_point(addr, !poll);   /* POS must know the access */
	else
		__green_explore_point(1);
}
