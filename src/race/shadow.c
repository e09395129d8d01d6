/*
 * shadow.c — the shadow memory and the race check (docs/race.md).
 *
 * Every 8-byte granule of the program's memory has up to RACE_NPLANE
 * access records (struct race_cell, 16 bytes each).  Its first record is
 * in a plane (16 bytes per granule, found by address); the others, when
 * it has more than one, in a block of RACE_NPLANE - 1 records from a
 * pool, named by a 4-byte index per granule beside the plane (0: none).
 * A plane of its own per record would be backed, page by page, wherever
 * one granule of the page has that many records: a third of zstd's
 * granules have two to four, spread evenly, which backed nearly all of
 * planes 1 to 3 for a third of their records.  A granule's records fill
 * its places in order (no hole before the last one), so a scan stops at
 * the first empty record; its block goes back to the pool when it is
 * down to one.
 *
 * The address space is cut into 1 GiB regions; a region's shadow (the
 * plane of 2 GiB and the index of 512 MiB, MAP_NORESERVE, at a multiple
 * of RACE_SHADOW_SPAN so that the index is found from the plane) is
 * reserved the first time one of its addresses is accessed, and the
 * kernel backs a page only when it is first written.
 *
 * The check, for an access of some bytes of a granule by thread t:
 *
 *   1. If a record of t's current epoch covers it (the same bytes or
 *      more, a kind at least as strong), it is already recorded: any race
 *      with it was looked for then.  Most repeated accesses end here.
 *   2. Each record of another thread whose bytes overlap, of which one
 *      side is a write and not both are atomic, races with the access
 *      unless its epoch is covered by t's vector clock: it is reported
 *      and forgotten.
 *   3. The access is recorded.  A record it dominates — one that happened
 *      before it (t's own, or covered by t's clock) on bytes it covers,
 *      of a kind no stronger — is replaced: any later access that would
 *      race with the old one races with the new one (ThreadSanitizer's
 *      rule, on any subset of the bytes rather than the same bytes only).
 *      A record of t's same epoch, kind and stack, at the same pc, takes
 *      the new bytes into its mask (a loop over a buffer's bytes keeps one
 *      record per granule), and then replaces the records it dominates
 *      with its larger mask.  Else a free place takes it; else a record is
 *      evicted: t's own oldest if it has one (its newer access stands for
 *      it in most later races), else one chosen by the clock's low bits.
 *      A race with an evicted access can go unseen.
 *
 * A free leaves a record that nothing is ordered after (race.h), first
 * in every granule of the block while the block is in the
 * quarantine (heap.c): any access to it is then a use after free.
 *
 * Copied-stack threads each run at a stack range of their own (a slot:
 * docs/stacks.md), so their accesses are checked as any others: a
 * pointer into a parked thread's stack means the same variable to every
 * thread.
 */
#include <string.h>
#include <sys/mman.h>
#include "race.h"
#include "base/report.h"

#define REGION_SHIFT RACE_REGION_SHIFT
#define NREGION RACE_NREGION
#define PLANE_BYTES RACE_PLANE_BYTES
#define SPAN RACE_SHADOW_SPAN
#define REGION_OFF(a) ((size_t)((a) & ((1ul << REGION_SHIFT) - 1)) >> 3)
#define EXT(c0) RACE_EXT(c0)
#define region __race_region
#define pool __race_pool
#define POOL_MAX (1u << 28)          /* blocks (12 GiB of address space) */

hidden char *__race_region[NREGION];
hidden struct race_ext *__race_pool;
static uint32_t pool_used = 1, pool_free;   /* pool_free: a list through c[0].node */
static const struct race_cell none;         /* the records a granule does not have */

static void *reserve(size_t size)
{
	void *m = mmap(0, size, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED) {
		__green_say("green: race detector: cannot map shadow memory\n");
		_Exit(1);
	}
	return m;
}

static struct race_cell *shadow_slow(uintptr_t a)
{
	size_t r = a >> REGION_SHIFT, size = PLANE_BYTES + PLANE_BYTES / 4;
	uintptr_t m, at;
	if (r >= NREGION) return 0;
	/* at a multiple of SPAN, so that EXT() finds the index plane */
	m = (uintptr_t)reserve(size + SPAN);
	at = (m + SPAN - 1) & ~(SPAN - 1);
	if (at > m) munmap((void *)m, at - m);
	munmap((void *)(at + size), m + SPAN - at);
	region[r] = (char *)at;
	return (struct race_cell *)at + REGION_OFF(a);
}

/* Record k of the granule whose first record is c0 (`none` past its
 * last: only read). */
static inline struct race_cell *cell(struct race_cell *c0, int k)
{
	uint32_t x;
	if (!k) return c0;
	x = *EXT(c0);
	return x ? &pool[x].c[k - 1] : (struct race_cell *)&none;
}
#define CELL(c0, k) cell(c0, k)

/* The granule c0 is to have a second record: its block. */
static void ext_need(struct race_cell *c0)
{
	uint32_t x, *e = EXT(c0);
	int k;
	if (*e) return;
	if (!pool) pool = reserve((size_t)POOL_MAX * sizeof *pool);
	if ((x = pool_free)) {
		pool_free = pool[x].c[0].node;
		for (k = 0; k < RACE_NPLANE - 1; k++) pool[x].c[k].info = 0;
	} else {
		if (pool_used == POOL_MAX) {
			__green_say("green: race detector: out of shadow blocks\n");
			_Exit(1);
		}
		x = pool_used++;
	}
	*e = x;
}

/* The granule c0 has one record or none: its block goes back. */
static void ext_put(uint32_t *e)
{
	pool[*e].c[0].info = 0;
	pool[*e].c[0].node = pool_free;
	pool_free = *e;
	*e = 0;
}

/* the first record of a's granule (0: a is outside the address space) */
static inline struct race_cell *shadow_of(uintptr_t a)
{
	size_t r = a >> REGION_SHIFT;
	if (r < NREGION && region[r]) return (struct race_cell *)region[r] + REGION_OFF(a);
	return shadow_slow(a);
}

#define shadow_if race_shadow_if

/* A race between the access and record c: out of the hot path. */
static __attribute__((noinline, cold)) void found(struct race_thread *t, uintptr_t a, size_t size,
                                                  uint64_t cur, uint32_t node, uint32_t pc,
                                                  uintptr_t granule, const struct race_cell *c)
{
	struct race_access now = { t->tid, !!(cur & INFO_W), !!(cur & INFO_A), a, (unsigned)size,
	                           node, pc };
	struct race_access old = { INFO_TID(c->info), !!(c->info & INFO_W), !!(c->info & INFO_A),
	                           granule + __builtin_ctz(INFO_MASK(c->info)),
	                           (unsigned)__builtin_popcount(INFO_MASK(c->info)), c->node, c->pc };
	int uaf = old.tid == RACE_FREED_TID;
	if (uaf) {
		old.tid = c->pc;          /* the freeing thread */
		old.pc = 0;
		old.size = 8;
		old.addr = granule;
	}
	__race_report(&now, &old, uaf);
}

/* Move the records of `drop` (a set of positions) out, keeping the n
 * records of the granule at 0..n'-1; returns n'. */
static int compact(struct race_cell *c0, int n, unsigned drop)
{
	int k;
	for (k = n - 1; k >= 0; k--) {
		if (!(drop >> k & 1)) continue;
		if (k != n - 1) *CELL(c0, k) = *CELL(c0, n - 1);
		CELL(c0, n - 1)->info = 0;
		n--;
	}
	if (n <= 1 && *EXT(c0)) ext_put(EXT(c0));
	return n;
}

/* Steps 2 and 3 of the check, for a granule with n records. */
static __attribute__((noinline)) void check_slow(struct race_thread *t, struct race_cell *c0, int n,
                                                 uint64_t cur, uintptr_t a, size_t size,
                                                 uint32_t node, uint32_t pc)
{
	unsigned m = INFO_MASK(cur), drop = 0, dom = 0;
	int k, merged = -1, at;

	if (node == RACE_NODE_LAZY) node = __race_ctx(t);
	for (k = 0; k < n; k++) {
		struct race_cell *c = CELL(c0, k);
		uint64_t ci = c->info;
		unsigned u = INFO_TID(ci);
		int same = u == t->tid;
		int before = same || INFO_CLOCK(ci) <= race_vc_get(&t->vc, u);
		if (!before && (INFO_MASK(ci) & m) && ((ci | cur) & INFO_W) && !(ci & cur & INFO_A)) {
			found(t, a, size, cur, node, pc, a & ~(uintptr_t)7, c);
			/* reported (or suppressed): forget it; a free's stays */
			if (u != RACE_FREED_TID) drop |= 1u << k;
			continue;
		}
		if (same && (ci >> 8) == (cur >> 8) && c->node == node && c->pc == pc) {
			c->info |= m;
			merged = k;
			continue;
		}
		if (before && !(ci & ~cur & INFO_W) && !(cur & ~ci & INFO_A))
			dom |= 1u << k;
	}
	/* of those, the records whose bytes the access covers, or the
	 * record it merged into (whose bytes are now more) */
	if (merged >= 0) m = INFO_MASK(CELL(c0, merged)->info);
	for (k = 0; k < n; k++)
		if (dom >> k & 1 && (INFO_MASK(CELL(c0, k)->info) & ~m)) dom &= ~(1u << k);
	if (merged >= 0) {
		drop |= dom & ~(1u << merged);
	} else {
		if (dom) {
			at = __builtin_ctz(dom);
			drop |= dom & ~(1u << at);
		} else if (n - __builtin_popcount(drop) < RACE_NPLANE) {
			n = compact(c0, n, drop);
			drop = 0;
			at = n++;
			if (at) ext_need(c0);
		} else {
			/* full: evict this thread's oldest record, else one at random */
			uint64_t oldest = ~0ull;
			at = -1;
			for (k = 0; k < n; k++) {
				uint64_t ci = CELL(c0, k)->info;
				if (INFO_TID(ci) == t->tid && INFO_CLOCK(ci) < oldest) {
					oldest = INFO_CLOCK(ci);
					at = k;
				}
			}
			if (at < 0) at = (int)(INFO_CLOCK(cur) % RACE_NPLANE);
		}
		/* the new record first, where the inline check looks first:
		 * the one it took the place of goes to the first one's */
		if (at) {
			*CELL(c0, at) = *c0;
			if (drop & 1) drop = (drop & ~1u) | 1u << at;
		}
		c0->info = cur;
		c0->node = node;
		c0->pc = pc;
	}
	if (drop) compact(c0, n, drop);
}

/* An access to the bytes `mask` of the granule at g (a: the access's own
 * address and size, for the report). */
static inline void check_one(struct race_thread *t, uintptr_t g, unsigned mask, int write,
                             int atomic, uintptr_t a, size_t size, uint32_t node, uint32_t pc)
{
	struct race_cell *c0 = shadow_of(g);
	uint64_t cur = race_vc_get(&t->vc, t->tid) << INFO_CLOCK_SHIFT |
	               (uint64_t)t->tid << INFO_TID_SHIFT | mask |
	               (write ? INFO_W : 0) | (atomic ? INFO_A : 0);
	int k;

	if (!c0) return;
	for (k = 0; k < RACE_NPLANE; k++) {
		uint64_t ci = CELL(c0, k)->info;
		if (!ci) break;
		/* step 1: same thread and epoch, its bytes, write if this is
		 * one, and atomic only if this is */
		if ((ci >> INFO_TID_SHIFT) == (cur >> INFO_TID_SHIFT) &&
		    !((cur & ~ci & (0xff | INFO_W)) | (ci & ~cur & INFO_A)))
			return;
	}
	if (!k) {
		/* the granule's first record */
		if (node == RACE_NODE_LAZY) node = __race_ctx(t);
		c0->info = cur;
		c0->node = node;
		c0->pc = pc;
		return;
	}
	check_slow(t, c0, k, cur, a, size, node, pc);
}

/* An access of size bytes at a (any size, any alignment: one check per
 * granule it touches). */
hidden void __race_access(struct race_thread *t, uintptr_t a, size_t size, int write,
                          int atomic, uint32_t node, uint32_t pc)
{
	uintptr_t p = a, end = a + size;
	while (p < end) {
		uintptr_t g = p & ~(uintptr_t)7;
		unsigned lo = p - g, hi = end - g < 8 ? (unsigned)(end - g) : 8;
		check_one(t, g, (0xffu >> (8 - hi)) & (0xffu << lo), write, atomic, a, size, node, pc);
		p = g + 8;
	}
}

/* The free of [a, a+size) by t: a write of every byte, checked against
 * every record but recorded nowhere (the block's shadow is then reset or
 * marked freed).  Granules with no record cost one load. */
hidden void __race_check_free(struct race_thread *t, uintptr_t a, size_t size,
                              uint32_t node, uint32_t pc)
{
	uintptr_t g;
	uint64_t cur = race_vc_get(&t->vc, t->tid) << INFO_CLOCK_SHIFT |
	               (uint64_t)t->tid << INFO_TID_SHIFT | 0xff | INFO_W;
	for (g = a & ~(uintptr_t)7; g < a + size; g += 8) {
		struct race_cell *c0 = shadow_if(g);
		int k;
		if (!c0) {
			g |= (1ul << REGION_SHIFT) - 8;   /* the rest of the region */
			continue;
		}
		for (k = 0; k < RACE_NPLANE; k++) {
			struct race_cell *c = CELL(c0, k);
			unsigned u = INFO_TID(c->info);
			if (!c->info) break;
			if (u == t->tid || INFO_CLOCK(c->info) <= race_vc_get(&t->vc, u))
				continue;
			found(t, g, 8, cur, node, pc, g, c);
		}
	}
}

/* Clear the records of the n granules from c0, reading the first
 * records first so that shadow nobody wrote stays unbacked. */
static void clear(struct race_cell *c0, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		if (!c0[i].info) continue;
		c0[i].info = 0;
		if (*EXT(c0 + i)) ext_put(EXT(c0 + i));
	}
}

/* The page-aligned part of [lo, hi) back to the kernel. */
static void release(char *lo, char *hi)
{
	char *plo = (char *)(((uintptr_t)lo + 4095) & ~(uintptr_t)4095);
	char *phi = (char *)((uintptr_t)hi & ~(uintptr_t)4095);
	if (phi > plo) madvise(plo, phi - plo, MADV_DONTNEED);
}

/* Forget every access to [a, a+size): fresh memory (malloc, a new
 * thread's stack), or memory given back.  Whole pages of shadow go back
 * to the kernel. */
hidden void __race_shadow_reset(uintptr_t a, size_t size)
{
	uintptr_t end = a + size;
	a &= ~(uintptr_t)7;
	while (a < end) {
		uintptr_t rend = (a | ((1ul << REGION_SHIFT) - 1)) + 1;
		struct race_cell *c0 = shadow_if(a);
		if (rend > end) rend = end;
		if (c0) {
			size_t n = (rend - a + 7) >> 3, i;
			if (n >= 16 * 4096 / sizeof *c0) {
				/* the blocks by the index plane, then the first
				 * records' pages and the index's whole pages */
				uint32_t *e = EXT(c0);
				for (i = 0; i < n; i++)
					if (e[i]) ext_put(&e[i]);
				for (i = 0; i < n && ((uintptr_t)(c0 + i) & 4095); i++)
					if (c0[i].info) c0[i].info = 0;
				for (i = n; i > 0 && ((uintptr_t)(c0 + i) & 4095); i--)
					if (c0[i - 1].info) c0[i - 1].info = 0;
				release((char *)c0, (char *)(c0 + n));
				release((char *)e, (char *)(e + n));
			} else {
				clear(c0, n);
			}
		}
		a = rend;
	}
}

/* The block [a, a+size) is freed by thread tid, at stack node: its
 * records go, and the first says "freed" until it leaves the quarantine. */
hidden void __race_shadow_freed(uintptr_t a, size_t size, unsigned tid, uint32_t node)
{
	uintptr_t g;
	uint64_t mark = RACE_CLOCK_MAX << INFO_CLOCK_SHIFT |
	                (uint64_t)RACE_FREED_TID << INFO_TID_SHIFT | INFO_W | 0xff;
	__race_shadow_reset(a, size);
	for (g = a & ~(uintptr_t)7; g < a + size; g += 8) {
		struct race_cell *c0 = shadow_of(g);
		if (!c0) return;
		c0->info = mark;
		c0->node = node;
		c0->pc = tid;
	}
}
