/*
 * shadow.c — the shadow memory and the race check (docs/race.md).
 *
 * Every 8-byte granule of the program's memory has up to RACE_NPLANE
 * access records (struct race_cell, 16 bytes each).  The records are laid
 * out in planes: record k of every granule lives in plane k, so that a
 * granule with one record costs 16 bytes of shadow per 8 of memory (and
 * the pages of plane k are backed only where some granule has k+1
 * records).  A granule's records fill its planes in order (no hole before
 * the last one), so a scan stops at the first empty record.
 *
 * The address space is cut into 1 GiB regions; a region's shadow
 * (RACE_NPLANE planes of 2 GiB, MAP_NORESERVE) is reserved the first time
 * one of its addresses is accessed, and the kernel backs a page only when
 * it is first written.
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
 *      record per granule).  Else a free plane takes it; else a record is
 *      evicted: t's own oldest if it has one (its newer access stands for
 *      it in most later races), else one chosen by the clock's low bits.
 *      A race with an evicted access can go unseen.
 *
 * A free leaves a record that nothing is ordered after (race.h), in
 * plane 0 of every granule of the block while the block is in the
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

#define REGION_SHIFT 30
#define NREGION (1u << (47 - REGION_SHIFT))
#define PLANE_BYTES ((size_t)16 << (REGION_SHIFT - 3))
#define REGION_OFF(a) ((size_t)((a) & ((1ul << REGION_SHIFT) - 1)) >> 3)
#define CELL(c0, k) ((struct race_cell *)((char *)(c0) + (k) * PLANE_BYTES))

static char *region[NREGION];

static struct race_cell *shadow_slow(uintptr_t a)
{
	size_t r = a >> REGION_SHIFT;
	char *m;
	if (r >= NREGION) return 0;
	m = mmap(0, RACE_NPLANE * PLANE_BYTES, PROT_READ | PROT_WRITE,
	         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED) {
		__green_say("green: race detector: cannot map shadow memory\n");
		_Exit(1);
	}
	region[r] = m;
	return (struct race_cell *)m + REGION_OFF(a);
}

/* plane 0's record of a's granule (0: a is outside the address space) */
static inline struct race_cell *shadow_of(uintptr_t a)
{
	size_t r = a >> REGION_SHIFT;
	if (r < NREGION && region[r]) return (struct race_cell *)region[r] + REGION_OFF(a);
	return shadow_slow(a);
}

/* ... or 0 if its region has no shadow yet (nothing was recorded there) */
static inline struct race_cell *shadow_if(uintptr_t a)
{
	size_t r = a >> REGION_SHIFT;
	return r < NREGION && region[r] ? (struct race_cell *)region[r] + REGION_OFF(a) : 0;
}

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

/* Move the records of `drop` (a set of planes) out, keeping the n
 * records of the granule in planes 0..n'-1; returns n'. */
static int compact(struct race_cell *c0, int n, unsigned drop)
{
	int k;
	for (k = n - 1; k >= 0; k--) {
		if (!(drop >> k & 1)) continue;
		if (k != n - 1) *CELL(c0, k) = *CELL(c0, n - 1);
		CELL(c0, n - 1)->info = 0;
		n--;
	}
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
		if (before && !(INFO_MASK(ci) & ~m) && !(ci & ~cur & INFO_W) && !(cur & ~ci & INFO_A))
			dom |= 1u << k;
	}
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
		CELL(c0, at)->info = cur;
		CELL(c0, at)->node = node;
		CELL(c0, at)->pc = pc;
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

/* Clear the records of the granules in [g, end) (8-aligned), reading
 * plane 0 first so that shadow nobody wrote stays unbacked. */
static void clear(struct race_cell *c0, size_t n)
{
	size_t i;
	int k;
	for (i = 0; i < n; i++)
		for (k = 0; k < RACE_NPLANE && CELL(c0 + i, k)->info; k++)
			CELL(c0 + i, k)->info = 0;
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
			size_t n = (rend - a + 7) >> 3;
			char *lo = (char *)c0, *hi = (char *)(c0 + n);
			char *plo = (char *)(((uintptr_t)lo + 4095) & ~(uintptr_t)4095);
			char *phi = (char *)((uintptr_t)hi & ~(uintptr_t)4095);
			if (phi - plo >= 16 * 4096) {
				int k;
				clear(c0, (size_t)(plo - lo) / sizeof *c0);
				for (k = 0; k < RACE_NPLANE; k++)
					madvise(plo + k * PLANE_BYTES, phi - plo, MADV_DONTNEED);
				clear((struct race_cell *)phi, (size_t)(hi - phi) / sizeof *c0);
			} else {
				clear(c0, n);
			}
		}
		a = rend;
	}
}

/* The block [a, a+size) is freed by thread tid, at stack node: its
 * records go, and plane 0 says "freed" until it leaves the quarantine. */
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
