/*
 * lockset.c — which locks a thread holds, for the report's "(mutexes:
 * write M0)" and "Mutex M0 created at" (docs/race.md).
 *
 * A lock's incarnation (struct race_mutex, numbered from 1) is made when
 * the program initialises it (pthread_mutex_init and the like, with the
 * stack of that call) or, for a statically initialised one, when it is
 * first locked; destroying it marks it destroyed, and the next init of
 * the same address makes a new one.  Each thread keeps the incarnations
 * it holds (sync.c calls __race_locked and __race_unlocked); the set is
 * interned (a sorted list of incarnation and mode, by content) so that
 * an access record names it in 32 bits, through a stack node
 * (threads.c's __race_ctx).
 */
#include <string.h>
#include "race.h"

static struct race_mutex *mutexes;
static uint32_t nmutex, mutex_cap;

static uint32_t mutex_new(struct race_thread *t, const void *addr, const void *fn,
                          const void *ret)
{
	struct race_mutex *m;
	if (nmutex + 1 >= mutex_cap) {
		uint32_t cap = mutex_cap ? mutex_cap * 2 : 256;
		struct race_mutex *a = __race_alloc(cap * sizeof *a);
		if (nmutex) memcpy(a, mutexes, (nmutex + 1) * sizeof *a);
		mutexes = a;
		mutex_cap = cap;
	}
	m = &mutexes[++nmutex];
	m->addr = (uintptr_t)addr;
	m->tid = t->tid;
	__race_entry(t, fn, ret, &m->node, &m->pc);
	return nmutex;
}

hidden const struct race_mutex *__race_mutex_get(uint32_t mid)
{
	return mid && mid <= nmutex ? &mutexes[mid] : 0;
}

hidden void __race_mutex_created(struct race_thread *t, const void *addr, const void *fn,
                                 const void *ret)
{
	struct race_sync *s = __race_sync(addr, 1);
	if (s->mid) mutexes[s->mid].destroyed = 1;
	s->mid = mutex_new(t, addr, fn, ret);
}

/* The lock's incarnation, made at its first use if it was never
 * initialised by a call. */
hidden uint32_t __race_mutex_of(struct race_thread *t, struct race_sync *s, const void *fn,
                                const void *ret)
{
	if (!s->mid) s->mid = mutex_new(t, (const void *)s->addr, fn, ret);
	return s->mid;
}

hidden void __race_mutex_destroyed(const void *addr)
{
	struct race_sync *s = __race_sync(addr, 0);
	if (s && s->mid) {
		mutexes[s->mid].destroyed = 1;
		s->mid = 0;
	}
}

/* ---- interned sets: entries mid << 1 | write, sorted */
struct set {
	uint32_t n, hash;
	uint32_t e[];
};
static struct set **sets;              /* by id; sets[0] is unused */
static uint32_t nsets, sets_cap;
static uint32_t *index_;               /* open addressing on the hash: set ids */
static uint32_t index_cap;

static uint32_t hash_of(const uint32_t *e, uint32_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	uint32_t i;
	for (i = 0; i < n; i++) h = (h ^ e[i]) * 0x100000001b3ull;
	return (uint32_t)(h >> 32) | 1;
}

static void index_grow(void)
{
	uint32_t cap = index_cap ? index_cap * 2 : 256, i, j;
	uint32_t *ix = __race_alloc(cap * sizeof *ix);
	for (i = 1; i <= nsets; i++) {
		for (j = sets[i]->hash & (cap - 1); ix[j]; j = (j + 1) & (cap - 1)) {}
		ix[j] = i;
	}
	index_ = ix;
	index_cap = cap;
}

static uint32_t intern(const uint32_t *e, uint32_t n)
{
	uint32_t h = hash_of(e, n), i, id;
	struct set *s;
	if (!n) return 0;
	if (2 * (nsets + 1) > index_cap) index_grow();
	for (i = h & (index_cap - 1); (id = index_[i]); i = (i + 1) & (index_cap - 1))
		if (sets[id]->hash == h && sets[id]->n == n && !memcmp(sets[id]->e, e, n * sizeof *e))
			return id;
	if (nsets + 1 >= sets_cap) {
		uint32_t cap = sets_cap ? sets_cap * 2 : 256;
		struct set **a = __race_alloc(cap * sizeof *a);
		if (nsets) memcpy(a, sets, (nsets + 1) * sizeof *a);
		sets = a;
		sets_cap = cap;
	}
	s = __race_alloc(sizeof *s + n * sizeof *e);
	s->n = n;
	s->hash = h;
	memcpy(s->e, e, n * sizeof *e);
	sets[++nsets] = s;
	index_[i] = nsets;
	return nsets;
}

static void remake(struct race_thread *t)
{
	uint32_t e[RACE_HELD_MAX], n = t->nheld, i, j;
	for (i = 0; i < n; i++) {
		uint32_t x = t->held[i].mid << 1 | t->held[i].write;
		for (j = i; j > 0 && e[j - 1] > x; j--) e[j] = e[j - 1];
		e[j] = x;
	}
	t->lockset = intern(e, n);
}

hidden void __race_locked(struct race_thread *t, uint32_t mid, int write)
{
	unsigned i;
	for (i = 0; i < t->nheld; i++)
		if (t->held[i].mid == mid) {
			t->held[i].count++;
			return;
		}
	if (t->nheld == RACE_HELD_MAX) return;
	t->held[t->nheld].mid = mid;
	t->held[t->nheld].write = !!write;
	t->held[t->nheld].count = 1;
	t->nheld++;
	remake(t);
}

hidden void __race_unlocked(struct race_thread *t, uint32_t mid)
{
	unsigned i;
	for (i = 0; i < t->nheld; i++)
		if (t->held[i].mid == mid) {
			if (--t->held[i].count) return;
			t->held[i] = t->held[--t->nheld];
			remake(t);
			return;
		}
}

hidden unsigned __race_lockset_get(uint32_t set, uint32_t *mids, unsigned char *writes,
                                   unsigned max)
{
	unsigned i, n;
	if (!set || set > nsets) return 0;
	n = sets[set]->n < max ? sets[set]->n : max;
	for (i = 0; i < n; i++) {
		mids[i] = sets[set]->e[i] >> 1;
		writes[i] = sets[set]->e[i] & 1;
	}
	return n;
}
