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
 * Reproducibility: the table is exact (no hash collision makes a page
 * shared), and a page's sharing depends only on which thread touched it
 * first, which the schedule fixes; where objects fall on pages is the
 * same from run to run (the program is static and not position-
 * independent, and mmap and brk move by whole pages under address-space
 * randomisation).  With copied stacks every thread runs at the same
 * stack addresses, so the stack's pages become shared too: more points,
 * still reproducible.
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
#include "base/gconfig.h"
#include "mempoints.h"

#define PAGE_SHIFT 12
#define SHARED 0xffffffffu
#define INITIAL (1u << 14)
#define SPIN_POLLS 1000

struct slot {
	uintptr_t key;       /* page number + 1, 0 = empty */
	uint32_t owner;      /* first toucher's thread id, or SHARED */
};

static struct slot *table;
static size_t cap, used;
static uintptr_t last_key;
static struct slot *last;
static uint32_t poller;          /* the thread of the current run of polls */
static unsigned polls;

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
	last_key = 0;
	return 1;
}

hidden void __green_mp_touch(const volatile void *addr, int poll)
{
	uintptr_t key = ((uintptr_t)addr >> PAGE_SHIFT) + 1;
	uint32_t me = __green_cur->id;
	struct slot *s;

	if (!poll || poller != me) {
		poller = me;
		polls = 0;
	} else if (++polls == SPIN_POLLS) {
		polls = 0;
		__green_explore_yielded();
		__green_explore_point(0);
	}
	if (key == last_key) {
		s = last;
	} else {
		if (2 * (used + 1) > cap && !grow()) return;
		s = probe(table, cap, key);
		if (!s->key) {
			s->key = key;
			s->owner = me;
			used++;
		}
		last_key = key;
		last = s;
	}
	if (s->owner == me) return;
	s->owner = SHARED;
	__green_explore_point(1);
}
