/*
 * heap.c — the heap as the race detector sees it (docs/race.md).
 *
 * malloc, calloc, aligned_alloc, memalign, posix_memalign (and through
 * them valloc and C++'s operator new), realloc and free are wrapped:
 *
 *   - a new block's shadow is reset: memory the allocator hands out again
 *     starts with no history, as if fresh;
 *   - free is a write of the whole block by the freeing thread, checked
 *     against every access recorded in it (an access by another thread
 *     that the free is not ordered after is a race with the free);
 *   - then the block's records are dropped and its synchronisation
 *     objects forgotten, and the block waits in a quarantine before the
 *     allocator gets it back, its shadow saying "freed" (shadow.c: its
 *     first KiB and every granule accessed before): any access to it
 *     there, by any thread, is a heap use after free, with the stack of
 *     the free.  The quarantine holds the most recent frees up to a
 *     quarter of the live heap (or 1 MiB when the heap is smaller) and
 *     QUARANTINE_BLOCKS blocks; a block larger than that goes back at
 *     once.  A block leaving it has its shadow released;
 *   - realloc is a read of the old block, a new block and the free of the
 *     old one (it always moves, as under ThreadSanitizer);
 *   - each live or quarantined block is remembered (address, size,
 *     allocating thread and stack) for the report's "Location is heap
 *     block" line.
 *
 * The libc's own allocations through its internal allocator entry points
 * are not seen (nor are its accesses to them: the libc is not
 * instrumented).
 */
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include "race.h"

#define QUARANTINE_BLOCKS 4096
#define QUARANTINE_MIN (1u << 20)
#define QUARANTINE_SHARE 4          /* at most a quarter of the live heap */

void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_aligned_alloc(size_t, size_t);
void *__real_memalign(size_t, size_t);
int __real_posix_memalign(void **, size_t, size_t);
void *__real_realloc(void *, size_t);
void __real_free(void *);

/* ---- live blocks: open addressing on the address */
static struct race_block *live;
static size_t live_cap, live_used, live_bytes;

static size_t slot_of(uintptr_t a, size_t cap)
{
	return (size_t)((a >> 4) * 0x9e3779b97f4a7c15ull >> 24) & (cap - 1);
}

static void live_put(const struct race_block *b);

static void live_grow(void)
{
	struct race_block *old = live;
	size_t oldcap = live_cap, i;
	live_cap = live_cap ? live_cap * 2 : 4096;
	live = __race_alloc(live_cap * sizeof *live);
	live_used = live_bytes = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i].addr > 1) live_put(&old[i]);
}

static void live_put(const struct race_block *b)
{
	size_t i;
	if (2 * (live_used + 1) > live_cap) live_grow();
	for (i = slot_of(b->addr, live_cap); live[i].addr > 1; i = (i + 1) & (live_cap - 1))
		if (live[i].addr == b->addr) break;
	if (live[i].addr == b->addr) live_bytes -= live[i].size;   /* calloc's inner malloc */
	else if (!live[i].addr) live_used++;
	live[i] = *b;
	live_bytes += b->size;
}

static int live_take(uintptr_t a, struct race_block *out)
{
	size_t i;
	if (!live_cap) return 0;
	for (i = slot_of(a, live_cap); live[i].addr; i = (i + 1) & (live_cap - 1))
		if (live[i].addr == a) {
			*out = live[i];
			live[i].addr = 1;
			live_bytes -= out->size;
			return 1;
		}
	return 0;
}

/* ---- the quarantine: a ring of freed blocks */
static struct race_block ring[QUARANTINE_BLOCKS];
static unsigned ring_head, ring_n;
static size_t ring_bytes;

/* The block goes back to the allocator: its shadow and objects go. */
static void release(const struct race_block *b)
{
	__race_shadow_reset(b->addr, b->size);
	__real_free((void *)b->addr);
}

static void quarantine(const struct race_block *b)
{
	size_t cap = live_bytes / QUARANTINE_SHARE;
	if (cap < QUARANTINE_MIN) cap = QUARANTINE_MIN;
	if (b->size > cap) {
		release(b);
		return;
	}
	while (ring_n == QUARANTINE_BLOCKS || (ring_n && ring_bytes + b->size > cap)) {
		release(&ring[ring_head]);
		ring_bytes -= ring[ring_head].size;
		ring_head = (ring_head + 1) % QUARANTINE_BLOCKS;
		ring_n--;
	}
	__race_shadow_freed(b->addr, b->size, b->freed_by - 1, b->free_node);
	ring[(ring_head + ring_n) % QUARANTINE_BLOCKS] = *b;
	ring_n++;
	ring_bytes += b->size;
}

static const struct race_block *freeing;   /* the block whose free is being checked */

hidden int __race_block_find(uintptr_t a, struct race_block *out)
{
	size_t i;
	if (freeing && a >= freeing->addr && a - freeing->addr < freeing->size) {
		*out = *freeing;
		return 1;
	}
	for (i = 0; i < live_cap; i++)
		if (live[i].addr > 1 && a >= live[i].addr && a - live[i].addr < live[i].size) {
			*out = live[i];
			return 1;
		}
	for (i = ring_n; i-- > 0; ) {
		struct race_block *b = &ring[(ring_head + i) % QUARANTINE_BLOCKS];
		if (a >= b->addr && a - b->addr < b->size) {
			*out = *b;
			return 1;
		}
	}
	return 0;
}

/* ---- the wrappers */

static void *born(void *p, size_t n, const void *fn, const void *ret)
{
	struct race_thread *me;
	struct race_block b;
	if (!p) return p;
	race_enter();
	me = race_self();
	__race_shadow_reset((uintptr_t)p, n);
	memset(&b, 0, sizeof b);
	b.addr = (uintptr_t)p;
	b.size = n;
	b.tid = me->tid;
	__race_entry(me, fn, ret, &b.node, &b.pc);
	live_put(&b);
	race_leave();
	return p;
}

static struct race_block *quarantined(uintptr_t a)
{
	unsigned i;
	for (i = 0; i < ring_n; i++)
		if (ring[(ring_head + i) % QUARANTINE_BLOCKS].addr == a)
			return &ring[(ring_head + i) % QUARANTINE_BLOCKS];
	return 0;
}

/* The free (by fn, called from ret): its write of the block, then the
 * quarantine.  A second free of a block in the quarantine is a write to
 * freed memory, reported as such; the block stays where it is. */
static void died(void *p, const void *fn, const void *ret)
{
	struct race_thread *me;
	struct race_block b, *q;
	uint32_t pc;
	race_enter();
	me = race_self();
	if (!live_take((uintptr_t)p, &b)) {
		if ((q = quarantined((uintptr_t)p))) {
			__race_entry(me, fn, ret, &b.free_node, &pc);
			__race_check_free(me, q->addr, q->size, b.free_node, pc);
			race_leave();
			return;
		}
		race_leave();
		__real_free(p);   /* not a block of ours (allocated before the detector) */
		return;
	}
	b.freed_by = me->tid + 1;
	__race_entry(me, fn, ret, &b.free_node, &pc);
	freeing = &b;
	if (!me->ign[1]) __race_check_free(me, b.addr, b.size, b.free_node, pc);
	freeing = 0;
	__race_sync_forget_range(b.addr, b.size);
	quarantine(&b);
	race_leave();
}

void *__wrap_malloc(size_t n)
{
	return born(__real_malloc(n), n, (const void *)__real_malloc, __builtin_return_address(0));
}

void *__wrap_aligned_alloc(size_t al, size_t n)
{
	return born(__real_aligned_alloc(al, n), n, (const void *)__real_aligned_alloc,
	            __builtin_return_address(0));
}

/* These reach malloc or aligned_alloc inside the libc, where the caller's
 * pc is lost: wrapped too, they record the block again with it. */
void *__wrap_calloc(size_t m, size_t n)
{
	return born(__real_calloc(m, n), m * n, (const void *)__real_calloc,
	            __builtin_return_address(0));
}

void *__wrap_memalign(size_t al, size_t n)
{
	return born(__real_memalign(al, n), n, (const void *)__real_memalign,
	            __builtin_return_address(0));
}

int __wrap_posix_memalign(void **p, size_t al, size_t n)
{
	int err = __real_posix_memalign(p, al, n);
	if (!err) born(*p, n, (const void *)__real_posix_memalign, __builtin_return_address(0));
	return err;
}

void __wrap_free(void *p)
{
	if (p) died(p, (const void *)__real_free, __builtin_return_address(0));
}

/* realloc: a read of the old block, a new block with its contents, and
 * the free of the old one. */
void *__wrap_realloc(void *p, size_t n)
{
	const void *ret = __builtin_return_address(0), *fn = (const void *)__real_realloc;
	struct race_block b;
	void *q;
	int known;
	if (!p) return born(__real_malloc(n), n, fn, ret);
	race_enter();
	known = live_take((uintptr_t)p, &b);
	if (known) {
		struct race_thread *me = race_self();
		uint32_t node, pc;
		__race_entry(me, fn, ret, &node, &pc);
		if (!me->ign[0]) __race_access(me, b.addr, b.size < n ? b.size : n, 0, 0, node, pc);
		live_put(&b);
	}
	race_leave();
	if (!known) return born(__real_realloc(p, n), n, fn, ret);
	q = __real_malloc(n);
	if (!q) return q;
	memcpy(q, p, b.size < n ? b.size : n);
	born(q, n, fn, ret);
	died(p, fn, ret);
	return q;
}
