/*
 * copied.c — copied stacks: many threads, one run-stack region.
 *
 * Design
 * ------
 * A copied-stack thread has no stack of its own while it is parked.  All
 * copied threads run on one shared region (mmap'd once, a guard page
 * below it); the thread whose live stack is in the region is its *owner*.
 * A parked copied thread keeps only its descriptor (malloc'd, with its
 * own TCB and TLS block when it has one: tls.c) and a save area holding
 * the live part of its stack, [sp, top).
 *
 * Switching to a copied thread T that does not own the region goes
 * through the scheduler context, a small coroutine with a stack of its
 * own, because the region is about to be overwritten and nobody may be
 * running on it:
 *
 *   from ──arch switch──> scheduler context:
 *                            save the owner's [sp, top) to its save area
 *                            copy T's save area back to [T.sp, top)
 *                            (or build T's first frame, if T is new)
 *                            owner = T
 *                         ──arch switch──> T
 *
 * Saving is lazy: leaving a copied thread for a separate-stack one copies
 * nothing, and coming back to the owner is a plain switch.  So the cost
 * of copying is paid only between two copied threads: a fixed part (two
 * switches) plus a part proportional to the live stack (bench/ fits it
 * by least squares, as Marovich's Table 3 did).
 *
 * Addresses of stack variables of a copied thread are valid only while
 * it runs (Marovich 2.1): the library never hands such an address to
 * another thread — every wait record lives in the thread descriptor — and
 * pthread_create warns when its argument points into the region.  A
 * signal frame or a preempted thread's tick-handler frame is simply part
 * of the live stack and is saved with it.
 *
 * The region's size bounds how deep a copied thread may go:
 * GREEN_COPIED_REGION bytes (default 1 MiB, see docs/environment.md); a
 * thread that overflows it hits the guard page and is named.
 */
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "gthread.h"
#include "section.h"
#include "lifecycle.h"
#include "gstack.h"
#include "report.h"
#include "gconfig.h"
#include "valgrind-glue.h"

#define SCHED_STACK (64 * 1024)

hidden char *__green_region_lo, *__green_region_top;   /* usable [lo, top) */
hidden size_t __green_region_guard;
hidden struct green_thread *__green_region_owner;

static void *sched_sp;                       /* the scheduler context, parked */
static struct green_thread *xfer_to;         /* whom it switches to next */

/*
 * Save areas come from a small allocator of their own, never malloc: the
 * scheduler context must not block, and malloc's lock may be held by the
 * very thread that was preempted inside malloc.  Sizes are powers of two
 * from 256 bytes; freed areas wait on a free list per size; new ones are
 * cut from 1 MiB chunks (larger ones mapped alone).  Everything runs in
 * the scheduler context or inside a no-preempt section.
 */
#define CLASSES 13                      /* 256 B .. 1 MiB */
#define CHUNK (1 << 20)
static void *free_area[CLASSES];
static char *chunk_next, *chunk_end;

static int size_class(size_t n)
{
	int k = 0;
	while ((size_t)256 << k < n) k++;
	return k;
}

static void *area_get(int k)
{
	size_t sz = (size_t)256 << k;
	void *p = free_area[k];
	if (p) {
		free_area[k] = *(void **)p;
		return p;
	}
	if (sz >= CHUNK) {
		p = mmap(0, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return p == MAP_FAILED ? 0 : p;
	}
	if (chunk_end - chunk_next < (ptrdiff_t)sz) {
		p = mmap(0, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) return 0;
		chunk_next = p;
		chunk_end = chunk_next + CHUNK;
	}
	p = chunk_next;
	chunk_next += sz;
	return p;
}

static void area_put(void *p, size_t cap)
{
	int k;
	if (!p) return;
	k = size_class(cap);
	*(void **)p = free_area[k];
	free_area[k] = p;
}

static void save(struct green_thread *t)
{
	char *sp = (char *)t->sp + GREEN_ARCH_STACK_BIAS;
	size_t n = __green_region_top - sp;
	if (n > t->save_cap) {
		int k = size_class(n);
		void *p = area_get(k);
		if (!p) {
			__green_say("green: out of memory saving the copied stack of thread %u\n", t->id);
			abort();
		}
		area_put(t->save, t->save_cap);
		t->save = p;
		t->save_cap = (size_t)256 << k;
	}
	/* the live stack is opaque bytes here; a preempted thread's part of it
	 * includes the gap the kernel left below its interrupted frame, which
	 * memcheck calls unaddressable */
	GREEN_VG_QUIET_BEGIN();
	memcpy(t->save, sp, n);
	GREEN_VG_QUIET_END();
	t->save_len = n;
}

static void restore(struct green_thread *t)
{
	char *sp = (char *)t->sp + GREEN_ARCH_STACK_BIAS;
	GREEN_VG_MAKE_UNDEFINED(sp, t->save_len);
	memcpy(sp, t->save, t->save_len);
}

/* The scheduler context: runs only between two arch switches. */
static void sched_loop(void *unused)
{
	for (;;) {
		struct green_thread *o = __green_region_owner, *t = xfer_to;
		if (o && o != t && o->state != GS_EXITED) save(o);
		if (!t->started) {
			t->started = 1;
			t->sp = __green_arch_make(__green_region_top, __green_thread_start, t);
		} else if (o != t) {
			restore(t);
		}
		__green_region_owner = t;
		__green_arch_switch(&sched_sp, t->sp);
	}
}

/* from -> to where to is a copied thread that does not own the region. */
hidden void __green_copied_switch(struct green_thread *from, struct green_thread *to)
{
	xfer_to = to;
	__green_arch_switch(&from->sp, sched_sp);
}

/* Map the region and the scheduler context's stack, once. */
static int region_init(void)
{
	size_t size = __green_config.region_size ? __green_config.region_size : 1 << 20;
	size_t guard = (GREEN_GUARD_DEFAULT + GREEN_PAGE_SIZE - 1) & -GREEN_PAGE_SIZE;
	char *base, *sbase;

	size = (size + GREEN_PAGE_SIZE - 1) & -GREEN_PAGE_SIZE;
	base = mmap(0, size + guard, PROT_READ | PROT_WRITE,
	            MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (base == MAP_FAILED) return EAGAIN;
	sbase = mmap(0, SCHED_STACK + guard, PROT_READ | PROT_WRITE,
	             MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (sbase == MAP_FAILED) {
		munmap(base, size + guard);
		return EAGAIN;
	}
	mprotect(base, guard, PROT_NONE);
	mprotect(sbase, guard, PROT_NONE);
	GREEN_VG_STACK_REGISTER(base + guard, base + guard + size);
	GREEN_VG_STACK_REGISTER(sbase + guard, sbase + guard + SCHED_STACK);
	__green_region_guard = guard;
	__green_region_lo = base + guard;
	__green_region_top = base + guard + size;
	sched_sp = __green_arch_make(sbase + guard + SCHED_STACK, sched_loop, 0);
	return 0;
}

/* A descriptor for a new copied-stack thread (its stack is the region). */
hidden struct green_thread *__green_copied_alloc(size_t size, int *err)
{
	struct green_thread *t;

	if (!__green_region_top && (*err = region_init())) return 0;
	if (size > (size_t)(__green_region_top - __green_region_lo)) {
		*err = EINVAL;   /* deeper than the region: docs/stacks.md */
		return 0;
	}
	/* the descriptor, and after it the memory for the thread's own TCB
	 * and TLS (tls.c): off the region, so valid while it is parked */
	if (__green_config.debug) {
		/* a mapping of its own, so that quarantine can take it away
		 * (quarantine.c; mmap's memory is zeroed, as calloc's) */
		size_t len = (sizeof *t + __green_tls_bytes + GREEN_PAGE_SIZE - 1) & -(size_t)GREEN_PAGE_SIZE;
		t = mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (t == MAP_FAILED) t = 0;
		else t->map_size = len;
	} else {
		t = calloc(1, sizeof *t + __green_tls_bytes);
	}
	if (!t) {
		*err = EAGAIN;
		return 0;
	}
	t->tcb = t + 1;
	t->stack_mode = GREEN_STACK_COPIED;
	t->stack_lo = __green_region_lo;
	t->stack_size = __green_region_top - __green_region_lo;
	t->guard_size = __green_region_guard;
	return t;
}

hidden void __green_copied_free(struct green_thread *t)
{
	if (__green_region_owner == t) __green_region_owner = 0;
	t->magic = 0;
	GREEN_ENTER();
	area_put(t->save, t->save_cap);
	GREEN_LEAVE();
	free(t->tsd);
	if (!t->map_size) free(t);
	else if (__green_quarantine(t, t, t->map_size, "descriptor")) munmap(t, t->map_size);
}

/* Does p point into the region while a copied thread other than the
 * running one may soon overwrite it? */
hidden int __green_in_region(const void *p)
{
	return __green_region_top && (const char *)p >= __green_region_lo &&
	       (const char *)p < __green_region_top;
}

/* ---- the attribute (green's _np extension, docs/man/pthread_attr_setstackmode_np.3) */

int pthread_attr_setstackmode_np(pthread_attr_t *a, int mode)
{
	if (mode != PTHREAD_STACK_DEFAULT_NP && mode != PTHREAD_STACK_SEPARATE_NP &&
	    mode != PTHREAD_STACK_COPIED_NP)
		return EINVAL;
	green_attr_set_stackmode(a, mode);
	return 0;
}

int pthread_attr_getstackmode_np(const pthread_attr_t *a, int *mode)
{
	*mode = green_attr_stackmode(a);
	return 0;
}
