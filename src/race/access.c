/*
 * access.c — the plain loads and stores of instrumented code: gcc calls
 * __tsan_readN/__tsan_writeN (N = 1, 2, 4, 8, 16) before each one, the
 * unaligned and volatile variants where it knows an access is such, and
 * __tsan_read_range/__tsan_write_range for block moves it expands inline
 * (docs/race.md).  Every one of them, and the few that gcc declares but
 * this compiler does not emit, is defined here; each checks and records
 * the access (shadow.c) with the call stack of the accessing function,
 * unless the thread ignores its reads or writes (annotate.c).
 *
 * They are weak, as ThreadSanitizer's are interposable: a program that
 * defines one of them itself (the volatile hooks, to count volatile
 * accesses) keeps its own.
 */
#include "race.h"

/* The whole check, in the detector's section. */
static __attribute__((noinline)) void touch_slow(const void *a, unsigned size, int write,
                                                 const void *ret)
{
	struct race_thread *t;
	race_enter();
	t = race_self();
	if (!t->ign[write])
		__race_access(t, (uintptr_t)a, size, write, 0, RACE_NODE_LAZY, __race_pc(ret));
	race_leave();
}

/*
 * The fast path, inline in every hook: an access inside one granule that
 * a record of the thread's current epoch already covers (its bytes, a
 * write if this is one, not atomic) is done: most repeated accesses.  It
 * only reads, a word at a time, so it needs no section: a tick that
 * switches threads in the middle leaves the thread's own epoch as it was,
 * and a record read is as good as the check made at the moment of its
 * load (a handler or another thread may change it later, as it may after
 * any check).  Everything else takes the whole check.
 */
static inline void touch(const void *a, unsigned size, int write, const void *ret)
{
	struct race_thread *t = __race_cache;
	struct green_thread *g = __green_cur;
	uintptr_t p = (uintptr_t)a;
	if (__builtin_expect(t && t->g == g && t->gid == g->id && (p & 7) + size <= 8, 1)) {
		uint64_t *i0 = race_shadow_if(p);
		if (i0) {
			uint64_t key = t->vc.v[t->tid] << INFO_CLOCK_SHIFT |
			               (uint64_t)t->tid << INFO_TID_SHIFT;
			uint64_t need = ((1u << size) - 1) << (p & 7) | (write ? INFO_W : 0);
			uint64_t ci = *i0;
			const uint64_t *x;
			uint32_t e;
			unsigned k;
			/* same thread and epoch, not atomic; its bytes and kind */
			if (!((ci ^ key) & ~(uint64_t)(0x1ff | INFO_X)) && !(need & ~ci)) return;
			if (ci & INFO_X) {
				e = *RACE_AUX(i0);
				x = race_ext(e);
				for (k = 0; k < RACE_EXT_CLASS(e); k++) {
					ci = x[k];
					if (!((ci ^ key) & ~(uint64_t)0x1ff) && !(need & ~ci)) return;
				}
			}
		}
	}
	touch_slow(a, size, write, ret);
}

#define RET __builtin_return_address(0)
#define W __attribute__((__weak__))
#define ACCESSES(N) \
	void W __tsan_read##N(void *a) { touch(a, N, 0, RET); } \
	void W __tsan_write##N(void *a) { touch(a, N, 1, RET); } \
	void W __tsan_volatile_read##N(void *a) { touch(a, N, 0, RET); } \
	void W __tsan_volatile_write##N(void *a) { touch(a, N, 1, RET); } \
	void W __tsan_read##N##_pc(void *a, void *pc) { touch(a, N, 0, (char *)pc + 1); } \
	void W __tsan_write##N##_pc(void *a, void *pc) { touch(a, N, 1, (char *)pc + 1); }
#define UNALIGNED(N) \
	void W __tsan_unaligned_read##N(const void *a) { touch(a, N, 0, RET); } \
	void W __tsan_unaligned_write##N(void *a) { touch(a, N, 1, RET); } \
	void W __tsan_unaligned_volatile_read##N(const void *a) { touch(a, N, 0, RET); } \
	void W __tsan_unaligned_volatile_write##N(void *a) { touch(a, N, 1, RET); }

ACCESSES(1)
ACCESSES(2)
ACCESSES(4)
ACCESSES(8)
ACCESSES(16)
UNALIGNED(2)
UNALIGNED(4)
UNALIGNED(8)
UNALIGNED(16)

static void range(const void *a, unsigned long size, int write, const void *ret)
{
	struct race_thread *t;
	race_enter();
	t = race_self();
	if (!t->ign[write])
		__race_access(t, (uintptr_t)a, size, write, 0, RACE_NODE_LAZY, __race_pc(ret));
	race_leave();
}

void W __tsan_read_range(void *a, unsigned long size)
{
	range(a, size, 0, RET);
}

void W __tsan_write_range(void *a, unsigned long size)
{
	range(a, size, 1, RET);
}

void W __tsan_read_range_pc(void *a, unsigned long size, void *pc)
{
	range(a, size, 0, (char *)pc + 1);
}

void W __tsan_write_range_pc(void *a, unsigned long size, void *pc)
{
	range(a, size, 1, (char *)pc + 1);
}

/* C++ virtual-table pointer stores and loads: a race on an object's
 * vptr is a race on the object, reported as ThreadSanitizer's "data race
 * on vptr (ctor/dtor vs virtual call)" when the vptr access is the later
 * one. */
static void vptr(void **p, int write, const void *ret)
{
	struct race_thread *t;
	race_enter();
	t = race_self();
	t->vptr = 1;
	if (!t->ign[write])
		__race_access(t, (uintptr_t)p, sizeof *p, write, 0, RACE_NODE_LAZY, __race_pc(ret));
	t->vptr = 0;
	race_leave();
}

void W __tsan_vptr_update(void **p, void *v)
{
	vptr(p, *p != v, RET);   /* storing the same pointer again is a read */
}

void W __tsan_vptr_read(void **p)
{
	vptr(p, 0, RET);
}
