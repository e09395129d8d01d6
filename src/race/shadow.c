/*
 * shadow.c — the shadow memory and the race check (docs/race.md).
 *
 * Every 8-byte granule of the program's memory has RACE_NCELL access
 * records (struct race_cell, 16 bytes each: 64 bytes of shadow per 8 of
 * memory).  The address space is cut into 1 GiB regions; a region's
 * shadow (8 GiB of address space, MAP_NORESERVE) is reserved the first
 * time one of its addresses is accessed, and the kernel backs a page of it
 * only when it is first written: the shadow of memory the program never
 * touches costs nothing.
 *
 * The check, for an access of `size` bytes at offset `off` of a granule
 * (after the shortcut for an access the thread made already in its
 * current epoch):
 * each record of another thread whose bytes overlap, of which one side is
 * a write and not both are atomic, races with it unless its epoch is
 * covered by the accessing thread's vector clock.  Then the access is
 * recorded: over the thread's own record of the same bytes when that one
 * is a read or this is a write, else in a free record, else over one
 * chosen by the clock's low bits.
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
#define SHADOW_PER_REGION ((size_t)1 << (REGION_SHIFT + 3))

static char *region[NREGION];

static struct race_cell *shadow_slow(uintptr_t a)
{
	size_t r = a >> REGION_SHIFT;
	char *m;
	if (r >= NREGION) return 0;
	m = mmap(0, SHADOW_PER_REGION, PROT_READ | PROT_WRITE,
	         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED) {
		__green_say("green: race detector: cannot map shadow memory\n");
		_Exit(1);
	}
	region[r] = m;
	return (struct race_cell *)(m + ((a & ((1ul << REGION_SHIFT) - 1)) >> 3) * 64);
}

static inline struct race_cell *shadow_of(uintptr_t a)
{
	size_t r = a >> REGION_SHIFT;
	if (r < NREGION && region[r])
		return (struct race_cell *)(region[r] + ((a & ((1ul << REGION_SHIFT) - 1)) >> 3) * 64);
	return shadow_slow(a);
}

static const unsigned char slog_of[9] = { 0, 0, 1, 0, 2, 0, 0, 0, 3 };

/* A race between the access and record c: out of the hot path. */
static __attribute__((noinline, cold)) void found(struct race_thread *t, uintptr_t a, unsigned size,
                                                  int write, int atomic, uint32_t node, uint32_t pc,
                                                  const struct race_cell *c)
{
	struct race_access cur = { t->tid, write, atomic, size, node, pc };
	struct race_access old = { CELL_TID(c->info), CELL_WRITE(c->info), CELL_ATOMIC(c->info),
	                           1u << CELL_SLOG(c->info), c->node, c->pc };
	__race_report(a, &cur, &old);
}

static void check_one(struct race_thread *t, uintptr_t a, unsigned size, int write,
                      int atomic, uint32_t node, uint32_t pc)
{
	struct race_cell *g = shadow_of(a), *c;
	unsigned off = a & 7, mask = ((1u << size) - 1) << off, i;
	uint64_t clock = race_vc_get(&t->vc, t->tid);
	uint64_t info = clock | (uint64_t)t->tid << 37 | (uint64_t)off << 57 |
	                (uint64_t)slog_of[size] << 60 | (uint64_t)write << 62 |
	                (uint64_t)atomic << 63;
	int mine = -1, empty = -1;

	if (!g) return;
	/* The same access (or a write of the same bytes) by this thread in
	 * this epoch is recorded already: any race with it was looked for
	 * when it, or the other access, was recorded (FastTrack's same-epoch
	 * case: most repeated accesses end here). */
	for (i = 0; i < RACE_NCELL; i++)
		if (g[i].info == info || g[i].info == (info | 1ull << 62)) return;
	if (node == RACE_NODE_LAZY) node = __race_top_node(t);
	for (i = 0; i < RACE_NCELL; i++) {
		uint64_t ci = g[i].info;
		unsigned cmask;
		if (!ci) {
			if (empty < 0) empty = i;
			continue;
		}
		if (CELL_TID(ci) == t->tid) {
			if (CELL_OFF(ci) == off && CELL_SLOG(ci) == slog_of[size] &&
			    CELL_ATOMIC(ci) == (unsigned)atomic && (write || !CELL_WRITE(ci)))
				mine = i;
			continue;
		}
		cmask = ((1u << (1u << CELL_SLOG(ci))) - 1) << CELL_OFF(ci);
		if (!(cmask & mask)) continue;
		if (!write && !CELL_WRITE(ci)) continue;
		if (atomic && CELL_ATOMIC(ci)) continue;
		if (CELL_CLOCK(ci) <= race_vc_get(&t->vc, CELL_TID(ci))) continue;
		found(t, a, size, write, atomic, node, pc, &g[i]);
		/* reported (or suppressed): this record has been seen, forget it */
		g[i].info = 0;
		if (empty < 0) empty = i;
	}
	c = &g[mine >= 0 ? mine : empty >= 0 ? empty : (int)(clock % RACE_NCELL)];
	c->info = info;
	c->node = node;
	c->pc = pc;
}

/* An access of 1, 2, 4 or 8 bytes (16 and unaligned ones split). */
hidden void __race_access(struct race_thread *t, uintptr_t a, unsigned size, int write,
                          int atomic, uint32_t node, uint32_t pc)
{
	if (size <= 8 && (a & 7) + size <= 8 && (size & (size - 1)) == 0) {
		check_one(t, a, size, write, atomic, node, pc);
		return;
	}
	while (size) {
		unsigned n = 8 - (a & 7);
		if (n > size) n = size;
		while (n & (n - 1) || (a & (n - 1))) n >>= 1;   /* a power of two, aligned */
		check_one(t, a, n, write, atomic, node, pc);
		a += n;
		size -= n;
	}
}

hidden void __race_range(struct race_thread *t, uintptr_t a, size_t size, int write,
                         uint32_t node, uint32_t pc)
{
	if (!size) return;
	while (size) {
		unsigned n = size > 8 ? 8 : (unsigned)size;
		if ((a & 7) + n > 8) n = 8 - (a & 7);
		__race_access(t, a, n, write, 0, node, pc);
		a += n;
		size -= n;
	}
}

/* Forget every access to [a, a+size): fresh memory (malloc, a new
 * thread's stack).  Whole pages of shadow go back to the kernel. */
hidden void __race_shadow_reset(uintptr_t a, size_t size)
{
	uintptr_t end = a + size;
	a &= ~(uintptr_t)7;
	while (a < end) {
		uintptr_t rend = (a | ((1ul << REGION_SHIFT) - 1)) + 1;
		size_t r = a >> REGION_SHIFT;
		char *lo, *hi, *plo, *phi;
		if (rend > end) rend = end;
		if (r >= NREGION) return;
		if (region[r]) {
			lo = (char *)shadow_of(a);
			hi = (char *)shadow_of(rend - 1) + 64;
			plo = (char *)(((uintptr_t)lo + 4095) & ~(uintptr_t)4095);
			phi = (char *)((uintptr_t)hi & ~(uintptr_t)4095);
			if (phi - plo >= 16 * 4096) {
				memset(lo, 0, plo - lo);
				madvise(plo, phi - plo, MADV_DONTNEED);
				memset(phi, 0, hi - phi);
			} else {
				memset(lo, 0, hi - lo);
			}
		}
		a = rend;
	}
}
