/*
 * clock.c — vector clocks, and the clocks of synchronisation objects
 * (docs/race.md).
 *
 * A synchronisation object is known by its address alone: a table maps
 * the address to its clocks, made on first use.  pthread_*_destroy
 * forgets it; an object in freed memory that was never destroyed keeps
 * its clocks, which can only add happens-before edges (a race on reused
 * memory may then go unseen), never invent a race.
 *
 * Memory comes from mmap in large pieces and is never given back: the
 * runtime must not call the program's malloc, which it watches.
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

/* Make room for entry t (old arrays are left behind: clocks are small). */
static void vc_grow(struct race_vc *c, unsigned n)
{
	unsigned cap = c->cap ? c->cap : 8;
	uint64_t *v;
	while (cap < n) cap *= 2;
	v = __race_alloc(cap * sizeof *v);
	if (c->n) memcpy(v, c->v, c->n * sizeof *v);
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

/* ---- the table of objects: open addressing on the address */

static struct race_sync *tab;
static size_t tab_cap, tab_used;

static size_t slot_of(uintptr_t a, size_t cap)
{
	return (size_t)((a >> 3) * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
}

static void tab_grow(void)
{
	struct race_sync *old = tab;
	size_t oldcap = tab_cap, i, j;
	tab_cap = tab_cap ? tab_cap * 2 : 1024;
	tab = __race_alloc(tab_cap * sizeof *tab);
	tab_used = 0;
	for (i = 0; i < oldcap; i++) {
		if (old[i].addr <= 1) continue;
		for (j = slot_of(old[i].addr, tab_cap); tab[j].addr; j = (j + 1) & (tab_cap - 1)) {}
		tab[j] = old[i];
		tab_used++;
	}
}

hidden struct race_sync *__race_sync(const void *p, int create)
{
	uintptr_t a = (uintptr_t)p;
	size_t i, del = (size_t)-1;
	if (!tab_cap) {
		if (!create) return 0;
		tab_grow();
	}
	for (i = slot_of(a, tab_cap); tab[i].addr; i = (i + 1) & (tab_cap - 1)) {
		if (tab[i].addr == a) return &tab[i];
		if (tab[i].addr == 1 && del == (size_t)-1) del = i;
	}
	if (!create) return 0;
	if (del == (size_t)-1) {
		if (2 * (tab_used + 1) > tab_cap) {
			tab_grow();
			return __race_sync(p, create);
		}
		tab_used++;
		del = i;
	}
	memset(&tab[del], 0, sizeof tab[del]);
	tab[del].addr = a;
	return &tab[del];
}

hidden void __race_sync_forget(const void *p)
{
	struct race_sync *s = __race_sync(p, 0);
	if (s) s->addr = 1;    /* its arrays stay in the pool */
}

/* A new epoch: what the thread does from here on is not covered by the
 * release it just made. */
hidden void __race_tick(struct race_thread *t)
{
	uint64_t c = race_vc_get(&t->vc, t->tid) + 1;
	if (c >> RACE_CLOCK_BITS) {
		__green_say("green: race detector: thread clock overflow\n");
		_Exit(1);
	}
	__race_vc_set(&t->vc, t->tid, c);
}

hidden void __race_acquire(struct race_thread *t, const void *addr)
{
	struct race_sync *s = __race_sync(addr, 0);
	if (s) __race_vc_join(&t->vc, &s->vc);
}

hidden void __race_release(struct race_thread *t, const void *addr)
{
	__race_vc_join(&__race_sync(addr, 1)->vc, &t->vc);
	__race_tick(t);
}
