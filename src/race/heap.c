/*
 * heap.c — the heap as the race detector sees it (docs/race.md).
 *
 * malloc, calloc, aligned_alloc, memalign, posix_memalign (and through
 * them valloc and C++'s operator new), realloc and free are wrapped:
 *
 *   - a new block's shadow is reset: memory the allocator hands out again
 *     starts with no history, as if fresh;
 *   - free is a write of the whole block by the freeing thread, so an
 *     access by another thread that does not happen after the free (a
 *     use after free across threads) is reported as a race with it;
 *   - a freed block waits in a quarantine (the last QUARANTINE_BLOCKS
 *     blocks, at most QUARANTINE_BYTES) before the allocator gets it
 *     back, so that such an access reads the freed block, not a new one,
 *     and the report can say which block it was and who freed it;
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
#include "race.h"

#define QUARANTINE_BLOCKS 1024
#define QUARANTINE_BYTES (16u << 20)

void *__real_malloc(size_t);
void *__real_aligned_alloc(size_t, size_t);
void *__real_realloc(void *, size_t);
void __real_free(void *);

/* ---- live blocks: open addressing on the address */
static struct race_block *live;
static size_t live_cap, live_used;

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
	live_used = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i].addr > 1) live_put(&old[i]);
}

static void live_put(const struct race_block *b)
{
	size_t i;
	if (2 * (live_used + 1) > live_cap) live_grow();
	for (i = slot_of(b->addr, live_cap); live[i].addr > 1; i = (i + 1) & (live_cap - 1))
		if (live[i].addr == b->addr) break;
	if (live[i].addr <= 1) live_used += !live[i].addr;
	live[i] = *b;
}

static int live_take(uintptr_t a, struct race_block *out)
{
	size_t i;
	if (!live_cap) return 0;
	for (i = slot_of(a, live_cap); live[i].addr; i = (i + 1) & (live_cap - 1))
		if (live[i].addr == a) {
			*out = live[i];
			live[i].addr = 1;
			return 1;
		}
	return 0;
}

/* ---- the quarantine: a ring of freed blocks */
static struct race_block ring[QUARANTINE_BLOCKS];
static unsigned ring_head, ring_n;
static size_t ring_bytes;

static void *quarantine(const struct race_block *b)
{
	void *out = 0;
	if (b->size > QUARANTINE_BYTES) return (void *)b->addr;   /* too big to keep */
	if (ring_n == QUARANTINE_BLOCKS || ring_bytes + b->size > QUARANTINE_BYTES) {
		out = (void *)ring[ring_head].addr;
		ring_bytes -= ring[ring_head].size;
		ring_head = (ring_head + 1) % QUARANTINE_BLOCKS;
		ring_n--;
	}
	ring[(ring_head + ring_n) % QUARANTINE_BLOCKS] = *b;
	ring_n++;
	ring_bytes += b->size;
	return out;
}

hidden int __race_block_find(uintptr_t a, struct race_block *out)
{
	size_t i;
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

static void *born(void *p, size_t n, const void *ret)
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
	b.node = __race_top_node(me);
	b.pc = __race_pc(ret);
	live_put(&b);
	race_leave();
	return p;
}

/* The free's write of the block, by the freeing thread.  Returns what to
 * give back to the allocator now (0: nothing yet). */
static void *died(void *p, const void *ret)
{
	struct race_thread *me;
	struct race_block b;
	void *out = p;
	race_enter();
	if (live_take((uintptr_t)p, &b)) {
		me = race_self();
		b.freed_by = me->tid + 1;
		b.free_node = __race_node(__race_top_node(me), __race_pc(ret));
		b.free_pc = RACE_PC_FREE;
		__race_range(me, b.addr, b.size, 1, b.free_node, b.free_pc);
		out = quarantine(&b);
	}
	race_leave();
	return out;
}

void *__wrap_malloc(size_t n)
{
	return born(__real_malloc(n), n, __builtin_return_address(0));
}

void *__wrap_aligned_alloc(size_t al, size_t n)
{
	return born(__real_aligned_alloc(al, n), n, __builtin_return_address(0));
}

/* These reach malloc or aligned_alloc inside the libc, where the caller's
 * pc is lost: wrapped too, they record the block again with it. */
void *__real_calloc(size_t, size_t);
void *__wrap_calloc(size_t m, size_t n)
{
	return born(__real_calloc(m, n), m * n, __builtin_return_address(0));
}

void *__real_memalign(size_t, size_t);
void *__wrap_memalign(size_t al, size_t n)
{
	return born(__real_memalign(al, n), n, __builtin_return_address(0));
}

int __real_posix_memalign(void **, size_t, size_t);
int __wrap_posix_memalign(void **p, size_t al, size_t n)
{
	int err = __real_posix_memalign(p, al, n);
	if (!err) born(*p, n, __builtin_return_address(0));
	return err;
}

void __wrap_free(void *p)
{
	if (p && (p = died(p, __builtin_return_address(0)))) __real_free(p);
}

/* realloc: a free of the old block and a new one, whose contents were
 * read from the old. */
void *__wrap_realloc(void *p, size_t n)
{
	const void *ret = __builtin_return_address(0);
	struct race_block b;
	void *q;
	int known;
	if (!p) return born(__real_realloc(0, n), n, ret);
	race_enter();
	known = live_take((uintptr_t)p, &b);
	if (known) {
		struct race_thread *me = race_self();
		__race_range(me, b.addr, b.size < n ? b.size : n, 0, __race_top_node(me), __race_pc(ret));
	}
	race_leave();
	q = __real_realloc(p, n);
	if (!q) {
		if (known && n) {
			race_enter();
			live_put(&b);
			race_leave();
		}
		return q;
	}
	return born(q, n, ret);
}
