/*
 * shadow.c — the shadow memory and the race check (docs/race.md).
 *
 * Every 8-byte granule of the program's memory has up to RACE_NREC
 * access records of 12 bytes (race.h): an info word (epoch, bytes, kind)
 * and a context (the access's pc and call stack, interned as one stack
 * node).  The info word of its first record is in a plane of 8 bytes per
 * granule, found by address, and beside it a 4-byte word per granule:
 * the first record's context while the granule has one record, else the
 * name of a block from a pool holding the first record's context and
 * the other records; INFO_X in the first info word says which.  A block
 * has the size of its class, the number of other records: 16, 32 or 40
 * bytes; a granule whose count changes moves to the block of the new
 * class.  A granule with one record (most of them) costs 12 bytes; one
 * with four, 52.  A plane of its own per record would be backed, page by
 * page, wherever one granule of the page has that many records: a third
 * to a half of zstd's granules have two to four, spread evenly.  A
 * granule's records fill its places in order (no hole before the last
 * one); its block goes back to the pool when it is down to one.
 *
 * The address space is cut into 1 GiB regions; a region's shadow (the
 * plane of 1 GiB and the words of 512 MiB, MAP_NORESERVE, at a multiple
 * of RACE_SHADOW_SPAN so that the words are found from the plane) is
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
 *      A record of t's same epoch, kind and context takes the new bytes
 *      into its mask (a loop over a buffer's bytes keeps one record per
 *      granule), and then replaces the records it dominates with its
 *      larger mask.  Else a free place takes it; else a record is
 *      evicted: t's own oldest if it has one (its newer access stands for
 *      it in most later races), else one chosen by the clock's low bits.
 *      A race with an evicted access can go unseen.
 *
 * Recording interns the access's context (callstack.c, through a cache:
 * only when a record is written, never in step 1).  A granule whose one
 * record the access dominates is rewritten inline, without the copy of
 * its records that the general case makes.
 *
 * A free leaves a record that nothing is ordered after (race.h), the
 * only one of each granule of the block's first KiB and of every other
 * granule of it that had records, while the block is in the quarantine
 * (heap.c): any access there is then a use after free.
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

#define NREC RACE_NREC
#define REGION_SHIFT RACE_REGION_SHIFT
#define NREGION RACE_NREGION
#define PLANE_BYTES RACE_PLANE_BYTES
#define SPAN RACE_SHADOW_SPAN
#define REGION_OFF(a) ((size_t)((a) & ((1ul << REGION_SHIFT) - 1)) >> 3)
#define AUX(i0) RACE_AUX(i0)
#define region __race_region
#define pool __race_pool
#define CLASS_UNITS (1u << 30)      /* 8-byte units per class (8 GiB of address space) */
/* a block of class c in 8-byte units: c info words, c + 1 contexts */
#define UNITS(c) ((c) + ((c) + 2) / 2)
/* The plane starts SKEW bytes into its span: a granule's first info
 * word would else have the low 12 bits of the granule's own address, and
 * the processor takes a load of one after a store to the other for a
 * dependence (4 KiB aliasing), and both share a set of the first-level
 * cache. */
#define SKEW RACE_SHADOW_SKEW
#define FREED_ALWAYS 1024            /* a freed block's bytes marked whether accessed or not */

hidden char *__race_region[NREGION];
hidden uint64_t *__race_pool;
static uint32_t pool_used[NREC], pool_free[NREC];   /* free: lists through the first word */

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

static uint64_t *shadow_slow(uintptr_t a)
{
	size_t r = a >> REGION_SHIFT, size = PLANE_BYTES + PLANE_BYTES / 2 + 2 * SKEW;
	uintptr_t m, at;
	if (r >= NREGION) return 0;
	/* at a multiple of SPAN, so that AUX() finds the words */
	m = (uintptr_t)reserve(size + SPAN);
	at = (m + SPAN - 1) & ~(SPAN - 1);
	if (at > m) munmap((void *)m, at - m);
	munmap((void *)(at + size), m + SPAN - at);
	region[r] = (char *)at + SKEW;
	return (uint64_t *)region[r] + REGION_OFF(a);
}

/* the first record's info word of a's granule (0: a is outside the
 * address space) */
static inline uint64_t *shadow_of(uintptr_t a)
{
	size_t r = a >> REGION_SHIFT;
	if (r < NREGION && region[r]) return (uint64_t *)region[r] + REGION_OFF(a);
	return shadow_slow(a);
}

#define shadow_if race_shadow_if

/* ---- a granule's records, copied out and back */
struct recs {
	uint64_t info[NREC + 1];     /* (one more: a new record before the dropped go) */
	uint32_t ctx[NREC + 1];
};

/* The records of the granule whose first info word is i0 (INFO_X
 * cleared): their number. */
static inline int load(const uint64_t *i0, struct recs *r)
{
	uint64_t ci = *i0;
	const uint64_t *x;
	const uint32_t *cx;
	uint32_t e;
	unsigned c, k;
	if (!ci) return 0;
	r->info[0] = ci & ~INFO_X;
	e = *AUX(i0);
	if (!(ci & INFO_X)) {
		r->ctx[0] = e;
		return 1;
	}
	x = race_ext(e);
	c = RACE_EXT_CLASS(e);
	cx = (const uint32_t *)(x + c);
	r->ctx[0] = cx[c];
	for (k = 0; k < c; k++) {
		r->info[k + 1] = x[k];
		r->ctx[k + 1] = cx[k];
	}
	return c + 1;
}

/* A block of class c. */
static uint32_t ext_get(unsigned c)
{
	uint32_t x;
	if (!pool) pool = reserve((size_t)NREC * CLASS_UNITS * 8);   /* (class 0 unused) */
	if ((x = pool_free[c])) {
		pool_free[c] = (uint32_t)*race_ext(x);
		return x;
	}
	if (pool_used[c] > CLASS_UNITS - UNITS(c)) {
		__green_say("green: race detector: out of shadow blocks\n");
		_Exit(1);
	}
	x = c << 30 | pool_used[c];
	pool_used[c] += UNITS(c);
	return x;
}

static void ext_put(uint32_t x)
{
	unsigned c = RACE_EXT_CLASS(x);
	*race_ext(x) = pool_free[c];
	pool_free[c] = x;
}

/* Write the granule's n records back: in a block of class n - 1 if it
 * has more than one. */
static void store(uint64_t *i0, const struct recs *r, int n)
{
	uint32_t *aux = AUX(i0);
	uint64_t *x;
	uint32_t *cx;
	unsigned c = n - 1, k;
	if (n <= 1) {
		if (*i0 & INFO_X) ext_put(*aux);
		*i0 = n ? r->info[0] : 0;
		if (n) *aux = r->ctx[0];
		return;
	}
	if (*i0 & INFO_X && RACE_EXT_CLASS(*aux) != c) {
		ext_put(*aux);
		*i0 &= ~INFO_X;
	}
	if (!(*i0 & INFO_X)) *aux = ext_get(c);
	x = race_ext(*aux);
	cx = (uint32_t *)(x + c);
	*i0 = r->info[0] | INFO_X;
	cx[c] = r->ctx[0];
	for (k = 0; k < c; k++) {
		x[k] = r->info[k + 1];
		cx[k] = r->ctx[k + 1];
	}
}

/* The context of an access: its pc under its stack (and locks), through
 * a cache of the last contexts made (a context is never 0). */
#define CTX_CACHE 256
static struct {
	uint32_t node, pc, ctx;
} ctx_cache[CTX_CACHE];

static inline uint32_t ctx_of(uint32_t node, uint32_t pc)
{
	unsigned h = (node * 0x9e3779b1u + pc) * 0x9e3779b1u >> 24 & (CTX_CACHE - 1);
	if (ctx_cache[h].ctx && ctx_cache[h].node == node && ctx_cache[h].pc == pc)
		return ctx_cache[h].ctx;
	ctx_cache[h].node = node;
	ctx_cache[h].pc = pc;
	return ctx_cache[h].ctx = __race_node(node, pc);
}

/* A race between the access and the record (info, ctx): out of the hot
 * path. */
static __attribute__((noinline, cold)) void found(struct race_thread *t, uintptr_t a, size_t size,
                                                  uint64_t cur, uint32_t node, uint32_t pc,
                                                  uintptr_t granule, uint64_t info, uint32_t ctx)
{
	struct race_access now = { t->tid, !!(cur & INFO_W), !!(cur & INFO_A), a, (unsigned)size,
	                           node, pc };
	struct race_access old = { INFO_TID(info), !!(info & INFO_W), !!(info & INFO_A),
	                           granule + __builtin_ctz(INFO_MASK(info)),
	                           (unsigned)__builtin_popcount(INFO_MASK(info)), 0, 0 };
	int uaf = old.tid == RACE_FREED_TID;
	if (uaf) {
		old.tid = (unsigned)INFO_CLOCK(info) - 1;   /* the freeing thread */
		old.node = ctx;
		old.size = 8;
		old.addr = granule;
	} else {
		__race_node_get(ctx, &old.node, &old.pc);
	}
	__race_report(&now, &old, uaf);
}

/* Steps 2 and 3 of the check. */
static __attribute__((noinline)) void check_slow(struct race_thread *t, uint64_t *i0, uint64_t cur,
                                                 uintptr_t a, size_t size, uint32_t node,
                                                 uint32_t pc)
{
	struct recs r;
	unsigned m = INFO_MASK(cur), drop = 0, dom = 0;
	int n = load(i0, &r), k, j, merged = -1, at;
	uint32_t ctx;

	if (node == RACE_NODE_LAZY) node = __race_ctx(t);
	ctx = ctx_of(node, pc);
	for (k = 0; k < n; k++) {
		uint64_t ci = r.info[k];
		unsigned u = INFO_TID(ci);
		int same = u == t->tid;
		int before = same || INFO_CLOCK(ci) <= race_vc_get(&t->vc, u);
		if (!before && (INFO_MASK(ci) & m) && ((ci | cur) & INFO_W) && !(ci & cur & INFO_A)) {
			found(t, a, size, cur, node, pc, a & ~(uintptr_t)7, ci, r.ctx[k]);
			/* reported (or suppressed): forget it; a free's stays */
			if (u != RACE_FREED_TID) drop |= 1u << k;
			continue;
		}
		if (same && (ci >> 8) == (cur >> 8) && r.ctx[k] == ctx) {
			r.info[k] |= m;
			merged = k;
			continue;
		}
		if (before && !(ci & ~cur & INFO_W) && !(cur & ~ci & INFO_A))
			dom |= 1u << k;
	}
	/* of those, the records whose bytes the access covers, or the
	 * record it merged into (whose bytes are now more) */
	if (merged >= 0) m = INFO_MASK(r.info[merged]);
	for (k = 0; dom >> k; k++)
		if (dom >> k & 1 && (INFO_MASK(r.info[k]) & ~m)) dom &= ~(1u << k);
	if (merged >= 0) {
		drop |= dom & ~(1u << merged);
	} else {
		if (dom) {
			at = __builtin_ctz(dom);
			drop |= dom & ~(1u << at);
		} else if (n - __builtin_popcount(drop) < NREC) {
			at = n++;
		} else {
			/* full: evict this thread's oldest record, else one at random */
			uint64_t oldest = ~0ull;
			at = -1;
			for (k = 0; k < n; k++)
				if (INFO_TID(r.info[k]) == t->tid && INFO_CLOCK(r.info[k]) < oldest) {
					oldest = INFO_CLOCK(r.info[k]);
					at = k;
				}
			if (at < 0) at = (int)(INFO_CLOCK(cur) % NREC);
		}
		/* the new record first, where the inline check looks first:
		 * the one it took the place of goes to the first one's */
		if (at) {
			r.info[at] = r.info[0];
			r.ctx[at] = r.ctx[0];
			if (drop & 1) drop = (drop & ~1u) | 1u << at;
		}
		r.info[0] = cur;
		r.ctx[0] = ctx;
	}
	if (drop) {
		for (j = k = 0; k < n; k++)
			if (!(drop >> k & 1)) {
				r.info[j] = r.info[k];
				r.ctx[j++] = r.ctx[k];
			}
		n = j;
	}
	store(i0, &r, n);
}

/* Step 1: a record of the access's thread and epoch (cur) covers it:
 * its bytes, write if this is one, and atomic only if this is. */
static inline int covers(uint64_t ci, uint64_t cur)
{
	return (ci >> INFO_TID_SHIFT) == (cur >> INFO_TID_SHIFT) &&
	       !((cur & ~ci & (0xff | INFO_W)) | (ci & ~cur & INFO_A));
}

/* An access to the bytes `mask` of the granule at g (a: the access's own
 * address and size, for the report). */
static inline void check_one(struct race_thread *t, uintptr_t g, unsigned mask, int write,
                             int atomic, uintptr_t a, size_t size, uint32_t node, uint32_t pc)
{
	uint64_t *i0 = shadow_of(g), ci;
	uint64_t cur = race_vc_get(&t->vc, t->tid) << INFO_CLOCK_SHIFT |
	               (uint64_t)t->tid << INFO_TID_SHIFT | mask |
	               (write ? INFO_W : 0) | (atomic ? INFO_A : 0);
	unsigned k;

	if (!i0) return;
	if (!(ci = *i0)) {
		/* the granule's first record */
		if (node == RACE_NODE_LAZY) node = __race_ctx(t);
		*i0 = cur;
		*AUX(i0) = ctx_of(node, pc);
		return;
	}
	if (covers(ci, cur)) return;
	if (!(ci & INFO_X) && !(ci & ~cur & (0xff | INFO_W)) && !(cur & ~ci & INFO_A) &&
	    INFO_CLOCK(ci) <= race_vc_get(&t->vc, INFO_TID(ci))) {
		/* the granule's one record happened before the access, which
		 * dominates it (step 3): the access takes its place */
		if (node == RACE_NODE_LAZY) node = __race_ctx(t);
		*i0 = cur;
		*AUX(i0) = ctx_of(node, pc);
		return;
	}
	if (ci & INFO_X) {
		uint32_t e = *AUX(i0);
		const uint64_t *x = race_ext(e);
		for (k = 0; k < RACE_EXT_CLASS(e); k++)
			if (covers(x[k], cur)) return;
	}
	check_slow(t, i0, cur, a, size, node, pc);
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
		uint64_t *i0 = shadow_if(g);
		struct recs r;
		int k, n;
		if (!i0) {
			g |= (1ul << REGION_SHIFT) - 8;   /* the rest of the region */
			continue;
		}
		if (!*i0) continue;
		n = load(i0, &r);
		for (k = 0; k < n; k++) {
			unsigned u = INFO_TID(r.info[k]);
			if (u == t->tid || INFO_CLOCK(r.info[k]) <= race_vc_get(&t->vc, u))
				continue;
			found(t, g, 8, cur, node, pc, g, r.info[k], r.ctx[k]);
		}
	}
}

/* Clear the records of the n granules from i0, reading the info words
 * first so that shadow nobody wrote stays unbacked. */
static void clear(uint64_t *i0, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		if (!i0[i]) continue;
		if (i0[i] & INFO_X) ext_put(*AUX(i0 + i));
		i0[i] = 0;
	}
}
/* The blocks named by the n info words from i0 go back to the pool.
 * Only pages of the plane the kernel has backed are read (mincore): a
 * new thread's 8 MiB stack has a 1 MiB plane, nearly all of it never
 * written, and reading it would fault in the zero page 256 times per
 * MiB only to find zeros (a thousand threads: 1.3 s of page faults). */
static void put_blocks(uint64_t *i0, size_t n)
{
	uint32_t *e = AUX(i0);
	uintptr_t lo = (uintptr_t)i0 & ~(uintptr_t)4095, hi = (uintptr_t)(i0 + n);
	unsigned char vec[256];

	for (uintptr_t p = lo; p < hi; p += sizeof vec << 12) {
		size_t k = (hi - p + 4095) >> 12, j;
		if (k > sizeof vec) k = sizeof vec;
		if (mincore((void *)p, k << 12, vec)) memset(vec, 1, k);   /* cannot tell: read */
		for (j = 0; j < k; j++) {
			uint64_t *w = (uint64_t *)(p + (j << 12)), *w1 = w + 4096 / sizeof *w;
			if (!(vec[j] & 1)) continue;
			if (w < i0) w = i0;
			if (w1 > i0 + n) w1 = i0 + n;
			for (; w < w1; w++)
				if (*w & INFO_X) ext_put(e[w - i0]);
		}
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
		uint64_t *i0 = shadow_if(a);
		if (rend > end) rend = end;
		if (i0) {
			size_t n = (rend - a + 7) >> 3, i;
			if (n >= 16 * 4096 / sizeof *i0) {
				/* the blocks, then the info words' partial pages;
				 * the whole pages of both planes go back */
				uint32_t *e = AUX(i0);
				put_blocks(i0, n);
				for (i = 0; i < n && ((uintptr_t)(i0 + i) & 4095); i++)
					if (i0[i]) i0[i] = 0;
				for (i = n; i > 0 && ((uintptr_t)(i0 + i) & 4095); i--)
					if (i0[i - 1]) i0[i - 1] = 0;
				release((char *)i0, (char *)(i0 + n));
				release((char *)e, (char *)(e + n));
			} else {
				clear(i0, n);
			}
		}
		a = rend;
	}
}

/* The block [a, a+size) is freed by thread tid, at stack node: the
 * records of its first FREED_ALWAYS bytes, and of every other granule
 * that has any, give way to one saying "freed" until it leaves the
 * quarantine.  A granule nobody accessed past those bytes keeps no
 * record: the freed marks of a large block the program touched in part
 * would back shadow pages its accesses never did. */
hidden void __race_shadow_freed(uintptr_t a, size_t size, unsigned tid, uint32_t node)
{
	uintptr_t g0 = a & ~(uintptr_t)7, g;
	uint64_t mark = (uint64_t)(tid + 1) << INFO_CLOCK_SHIFT |
	                (uint64_t)RACE_FREED_TID << INFO_TID_SHIFT | INFO_W | 0xff;
	for (g = g0; g < a + size; g += 8) {
		int always = g - g0 < FREED_ALWAYS;
		uint64_t *i0 = always ? shadow_of(g) : shadow_if(g);
		if (!i0) {
			if (always) return;
			g |= (1ul << REGION_SHIFT) - 8;   /* the rest of the region */
			continue;
		}
		if (!*i0 && !always) continue;
		if (*i0 & INFO_X) ext_put(*AUX(i0));
		*i0 = mark;
		*AUX(i0) = node;
	}
}
