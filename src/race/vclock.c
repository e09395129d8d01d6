/*
 * vclock.c — vector clocks, and the clocks of synchronisation objects
 * (docs/race.md).
 *
 * A synchronisation object is known by its address alone: a map gives
 * the address's clocks, made on first use.  pthread_*_destroy forgets
 * them, and so does the free of the memory that holds the object (a new
 * object or plain data at that address starts with no edges): objects
 * are also listed by their 4 KiB page, so that a free finds those of its
 * block without a walk of every object.
 *
 * Memory comes from mmap in large pieces and is never given back to the
 * kernel: the runtime must not call the program's malloc, which it
 * watches.  Clock arrays and objects that are no longer used go to free
 * lists (arrays by their capacity, a power of two) for the next ones.
 */
#include <string.h>
#include <sys/mman.h>
#include "race.h"
#include "base/report.h"

static char *pool, *pool_end;

hidden void *__race_alloc(size_t n)
{
	void *p;
	n = (n + 15) & ~(size_t)15;
	if (n > (size_t)(pool_end - pool)) {
		size_t chunk = n > (1 << 20) ? n : 1 << 20;
		char *m = mmap(0, chunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED) {
			__green_say("green: race detector: out of memory\n");
			_Exit(1);
		}
		pool = m;
		pool_end = m + chunk;
	}
	p = pool;
	pool += n;
	return p;
}

/* ---- clock arrays: free lists by capacity (8 << k) */
struct spare { struct spare *next; };
static struct spare *spare_vc[28];

static unsigned class_of(unsigned cap)
{
	return (unsigned)__builtin_ctz(cap) - 3;
}

static uint64_t *vc_array(unsigned cap)
{
	struct spare *s = spare_vc[class_of(cap)];
	if (!s) return __race_alloc(cap * sizeof(uint64_t));
	spare_vc[class_of(cap)] = s->next;
	return (uint64_t *)s;
}

static void vc_release(struct race_vc *c)
{
	struct spare *s = (struct spare *)c->v;
	if (!c->cap) return;
	s->next = spare_vc[class_of(c->cap)];
	spare_vc[class_of(c->cap)] = s;
	c->v = 0;
	c->n = c->cap = 0;
}

/* Make room for n entries. */
static void vc_grow(struct race_vc *c, unsigned n)
{
	unsigned cap = c->cap ? c->cap : 8;
	uint64_t *v;
	while (cap < n) cap *= 2;
	v = vc_array(cap);
	if (c->n) memcpy(v, c->v, c->n * sizeof *v);
	if (c->cap) {
		unsigned keep = c->n;
		vc_release(c);
		c->n = keep;
	}
	c->v = v;
	c->cap = cap;
}

hidden void __race_vc_set(struct race_vc *c, unsigned t, uint64_t x)
{
	if (t >= c->cap) vc_grow(c, t + 1);
	if (t >= c->n) {
		memset(c->v + c->n, 0, (t + 1 - c->n) * sizeof *c->v);
		c->n = t + 1;
	}
	c->v[t] = x;
}

hidden void __race_vc_join(struct race_vc *to, const struct race_vc *from)
{
	unsigned i;
	if (from->n > to->cap) vc_grow(to, from->n);
	if (from->n > to->n) {
		memset(to->v + to->n, 0, (from->n - to->n) * sizeof *to->v);
		to->n = from->n;
	}
	for (i = 0; i < from->n; i++)   /* branch-free: the compiler vectorises it */
		to->v[i] = from->v[i] > to->v[i] ? from->v[i] : to->v[i];
}

hidden void __race_vc_copy(struct race_vc *to, const struct race_vc *from)
{
	to->n = 0;
	__race_vc_join(to, from);
}

hidden void __race_vc_clear(struct race_vc *c)
{
	vc_release(c);
}

/* ---- the objects: by address, and by page */

static struct race_map objects, pages;
static struct race_sync *spare_sync;

static void page_add(struct race_sync *s)
{
	uintptr_t p = s->addr >> 12;
	s->page_next = __race_map_get(&pages, p);
	__race_map_put(&pages, p, s);
}

static void page_remove(struct race_sync *s)
{
	uintptr_t p = s->addr >> 12;
	struct race_sync *h = __race_map_get(&pages, p), **pp = &h;
	while (*pp && *pp != s) pp = &(*pp)->page_next;
	if (*pp) *pp = s->page_next;
	if (h) __race_map_put(&pages, p, h);
	else __race_map_del(&pages, p);
}

hidden struct race_sync *__race_sync(const void *p, int create)
{
	uintptr_t a = (uintptr_t)p;
	struct race_sync *s = __race_map_get(&objects, a);
	if (s || !create) return s;
	if ((s = spare_sync)) {
		spare_sync = s->page_next;
		memset(s, 0, sizeof *s);
	} else {
		s = __race_alloc(sizeof *s);
	}
	s->addr = a;
	__race_map_put(&objects, a, s);
	page_add(s);
	return s;
}

static void drop(struct race_sync *s)
{
	page_remove(s);
	__race_map_del(&objects, s->addr);
	vc_release(&s->vc);
	vc_release(&s->rvc);
	s->page_next = spare_sync;
	spare_sync = s;
}

hidden void __race_sync_forget(const void *p)
{
	struct race_sync *s = __race_map_get(&objects, (uintptr_t)p);
	if (s) drop(s);
}

/* Forget every object in [a, a+size): the memory is freed. */
hidden void __race_sync_forget_range(uintptr_t a, size_t size)
{
	uintptr_t p, end = a + size;
	if (!objects.live || !size) return;
	for (p = a >> 12; p <= (end - 1) >> 12; p++) {
		struct race_sync *s = __race_map_get(&pages, p), *next;
		for (; s; s = next) {
			next = s->page_next;
			if (s->addr >= a && s->addr < end) drop(s);
		}
	}
}

/* A new epoch: what the thread does from here on is not covered by the
 * release it just made. */
hidden void __race_tick(struct race_thread *t)
{
	uint64_t c = race_vc_get(&t->vc, t->tid) + 1;
	if (c >= RACE_CLOCK_MAX) {
		__green_say("green: race detector: thread clock overflow\n");
		_Exit(1);
	}
	__race_vc_set(&t->vc, t->tid, c);
}

hidden void __race_acquire(struct race_thread *t, const void *addr)
{
	struct race_sync *s;
	if (t->ign_sync) return;
	if ((s = __race_sync(addr, 0))) __race_vc_join(&t->vc, &s->vc);
}

hidden void __race_release(struct race_thread *t, const void *addr)
{
	if (t->ign_sync) return;
	__race_vc_join(&__race_sync(addr, 1)->vc, &t->vc);
	__race_tick(t);
}
