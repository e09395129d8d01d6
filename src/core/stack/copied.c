/*
 * copied.c — copied stacks: many threads, little memory, each stack at
 * an address of its own.
 *
 * Design
 * ------
 * Every copied-stack thread has a *slot*: a range of address space of its
 * own (GREEN_COPIED_REGION bytes of stack, default 1 MiB, with a guard
 * below; 2 MiB-aligned, reserved PROT_NONE in chunks of slots, so it costs
 * address space, not memory).  A thread always runs at its slot, so the
 * address of a local variable means the same thing whether its thread
 * runs or is parked: another thread may follow a pointer into it.
 *
 * A slot is in one of two states:
 *
 *   hot    mapped read-write: the thread's frames are in place, as on a
 *          separate stack.  Switching to a hot thread is a plain switch.
 *   cold   PROT_NONE, no pages: the live part of the stack, [sp, top), is
 *          in the thread's save area (a few hundred bytes for a parked
 *          thread), which is all a cold thread costs besides its
 *          descriptor.
 *
 *        first run, switch to it,
 *        or a foreign access faults                     HOT hand passes it
 *   COLD ──(load: the evicted thread's pages moved here, ──> HOT
 *           or mprotect RW; the save area copied in)
 *        <──(evict: copy [sp, top) out, the slot PROT_NONE again)──
 *
 * The hot set starts at 1024 threads (GREEN_COPIED_HOT fixes it);
 * loading one more evicts the one that became hot longest ago (a ring:
 * first in, first out), never the thread running nor the one being
 * loaded.  The evicted thread's mapped stack is moved, pages and all, to
 * the slot being loaded (mremap), so a load faults no page in: one copy
 * out, one copy in and two system calls (move_pages()).  That is still
 * some 15 us on the virtual machines measured, against 20 ns for a
 * switch between hot threads, so the hot set grows (doubling, up to
 * 65535) while reloads are frequent (hot_grow()): a server whose
 * thousands of threads each run in turn keeps them all hot, each costing
 * its touched pages and a page table as a separate stack would, while
 * threads that park and stay parked go cold, costing their descriptor
 * and save area only.
 *
 * Another thread that touches a cold thread's stack (a request on the
 * stack handed to a worker, a list of nodes on stacks) faults: the
 * SIGSEGV handler (separate.c) calls __green_copied_fault, which loads the
 * owner (it becomes hot) and returns, and the access runs again on the
 * owner's real bytes.  A fault in a slot's guard names the thread that
 * overflowed; in a freed slot, the thread that touched the stack of a
 * thread that has exited.  The kernel cannot take the fault: a system
 * call handed a cold address fails with EFAULT; one that goes through
 * __syscall_cp loads the stacks its arguments point into and is made
 * again (__green_copied_touch; docs/stacks.md).
 *
 * No copy runs on the stack it overwrites: every thread has its own
 * addresses, and the running thread is never evicted.  A signal frame
 * or a preempted thread's tick-handler frame is part of the live stack
 * and is saved with it.  A thread that asks for a deeper stack than a
 * slot while copied is only the process default gets a separate stack
 * instead (create.c); one that names copied mode gets EINVAL.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* mremap */
#endif
#include <sys/mman.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "base/gthread.h"
#include "base/check.h"
#include "base/section.h"
#include "thread/lifecycle.h"
#include "sched/tick.h"
#include "stack/gstack.h"
#include "base/report.h"
#include "base/gconfig.h"
#include "base/valgrind-glue.h"

#define SLOT_ALIGN ((size_t)2 << 20)   /* a page table's span: freed with the slot */
#define CHUNK_SLOTS (sizeof(void *) > 4 ? 512 : 16)
#define HOT_DEFAULT 1024                 /* GREEN_COPIED_HOT unset: where the hot set starts */
#define HOT_LIMIT GREEN_COPIED_HOT_MAX   /* the most it grows to (hot_at is 16 bits) */
_Static_assert(HOT_LIMIT <= (unsigned short)-1, "a hot place fits a thread's hot_at");

struct slot {
	struct green_thread *owner;             /* its thread; 0 if none, or shared */
	unsigned n;                             /* threads given it and not freed */
	unsigned char shared;                   /* n has been 2 or more */
};
struct chunk {
	char *base;
	unsigned used;                          /* slots handed out once */
	struct slot slot[];                     /* CHUNK_SLOTS */
};
static struct chunk **chunks;
static unsigned nchunks, chunks_cap;
static char **free_slot;                     /* slots given back, for reuse */
static size_t nfree;
static size_t slot_size, slot_guard;         /* usable = slot_size - slot_guard */
static size_t nslots, slot_max, share_next;  /* slots reserved, the most, the next shared */
static struct green_thread **hot;            /* the ring of hot threads */
static unsigned hot_max, hand, hot_cap;       /* hot[] has room for hot_cap */
static unsigned long win_start, win_reloads;  /* the growth rule's window (hot_grow()) */

/*
 * Save areas come from a small allocator of their own, never malloc: an
 * eviction runs inside the switch or the fault handler, and malloc's lock
 * may be held by the very thread that was preempted inside malloc.  Sizes
 * are powers of two from 256 bytes; freed areas wait on a free list per
 * size; new ones are cut from 1 MiB chunks (larger ones mapped alone).
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

/* What is mapped of a hot slot: from a page below its usable part (the
 * room for the colour) to its top; stack_lo is where it starts. */
static size_t mapped_len(void)
{
	return slot_size - slot_guard + GREEN_PAGE_SIZE;
}

static char *top_of(const struct green_thread *t)
{
	return (char *)t->stack_lo + t->stack_size;
}

static void save(struct green_thread *t)
{
	char *sp = (char *)t->sp + GREEN_ARCH_STACK_BIAS;
	size_t n = top_of(t) - sp;
	if (n > t->save_cap) {
		int k = size_class(n);
		void *p = area_get(k);
		if (!p) {
			__green_say("green: out of memory saving the copied stack of thread %u (%zu bytes)\n", t->id, n);
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

/* Drop a slot's pages (and its page table: the whole aligned slot goes). */
static void slot_drop(char *slot)
{
	mmap(slot, slot_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

static void evict(struct green_thread *v)
{
	if (v->state != GS_EXITED) save(v);
	else v->save_len = 0;   /* nothing left to run: nothing to keep */
	v->hot = 0;
	hot[v->hot_at] = 0;
	slot_drop(v->map_base);
}

/*
 * Evict v by moving its mapped stack, pages and all, to t's slot
 * (mremap): t's frames are copied over v's, and no page is freed, faulted
 * in and zeroed again, which in a virtual machine cost several times the
 * copy.  v's slot is reserved again, PROT_NONE.  0 when done.
 */
static int move_pages(struct green_thread *v, struct green_thread *t)
{
	if (v->state != GS_EXITED) save(v);
	else v->save_len = 0;
	if (mremap(v->stack_lo, mapped_len(), mapped_len(), MREMAP_MAYMOVE | MREMAP_FIXED,
	           t->stack_lo) == MAP_FAILED)
		return -1;   /* evict() saves again: the stack has not changed */
	v->hot = 0;
	hot[v->hot_at] = 0;
	slot_drop(v->map_base);
	return 0;
}

/*
 * The hot set grows while it is too small for the threads that take
 * turns: when, over a window of hot_max switches or more, more than one in 16
 * of the switches loaded a stack that had been evicted (a server whose
 * thousands of threads each run in turn), it doubles, up to HOT_LIMIT.
 * Threads that park and stay parked are loaded once, at their first run,
 * which is no reload: they never grow it, and their stacks go cold (the
 * memory of parked threads).  A hot set fixed by GREEN_COPIED_HOT never
 * grows.
 */
static void hot_grow(void)
{
	unsigned long span = __green_nswitch - win_start;

	win_reloads++;
	if (span < hot_max) return;   /* the window is not over */
	if (win_reloads * 16 > span) {
		hand = hot_max;   /* the empty places next, then the oldest again */
		hot_max = hot_max * 2 < hot_cap ? hot_max * 2 : hot_cap;
	}
	win_start = __green_nswitch;
	win_reloads = 0;
}

/* Make t hot (inside a no-preempt section, or the fault handler); never
 * evicts the running thread nor `keep`. */
static void load(struct green_thread *t, struct green_thread *keep)
{
	struct green_thread *v = 0;
	unsigned i;

	for (i = 0; i < hot_max; i++, hand = (hand + 1) % hot_max) {
		if (!hot[hand]) break;
		if (hot[hand] != __green_cur && hot[hand] != keep) {
			v = hot[hand];
			break;
		}
	}
	green_check(t, i < hot_max, "the hot ring, making it hot", "no thread to evict",
	            "a hot thread other than the running one (the ring holds more than two)");
	if (v && !move_pages(v, t)) {
		/* the evicted thread's pages became t's */
	} else if (v) {
		evict(v);
		v = 0;
	}
	if (!v && mprotect(t->stack_lo, mapped_len(), PROT_READ | PROT_WRITE)) {
		__green_say("green: cannot map the copied stack of thread %u\n", t->id);
		abort();
	}
	if (t->started && hot_cap > hot_max) hot_grow();
	hot[hand] = t;
	t->hot_at = hand;
	t->hot = 1;
	hand = (hand + 1) % hot_max;
	if (!t->started) {
		__green_thread_frame(t, top_of(t));
	} else {
		char *sp = (char *)t->sp + GREEN_ARCH_STACK_BIAS;
		GREEN_VG_MAKE_UNDEFINED(sp, t->save_len);
		memcpy(sp, t->save, t->save_len);
	}
}

/*
 * Shared slots (32-bit CPUs).  A slot per thread takes 2 MiB of address
 * space: 4 GiB hold fewer than 2000.  Past SHARE_BUDGET of slots, a new
 * copied thread is given a slot that other threads have (in turn), as
 * every copied thread shared one region before slots.  A thread whose
 * slot is shared is hot only while it runs: leaving it, it is evicted,
 * on the scheduler context (a small stack of its own, since the slot is
 * unmapped under the leaving thread, and the next one may be copied into
 * the same addresses).  Another thread's touch of a shared slot cannot
 * be told to be meant for one thread or another: it is named, with the
 * threads whose live stacks cover the address, and the process dies
 * (__green_copied_fault).
 */
#define SHARE_BUDGET ((size_t)1 << 30)   /* of address space, 32-bit */
#define SCHED_STACK (64 * 1024)
static void *sched_sp;                   /* the scheduler context, parked */
static struct green_thread *xfer_from, *xfer_to;

static void sched_loop(void *unused)
{
	for (;;) {
		struct green_thread *f = xfer_from, *t = xfer_to;
		if (f->hot) evict(f);
		if (t->stack_mode == GREEN_STACK_COPIED && !t->hot) load(t, 0);
		__green_arch_switch(&sched_sp, t->sp);
	}
}

static int sched_init(void)
{
	size_t guard = (GREEN_GUARD_DEFAULT + GREEN_PAGE_SIZE - 1) & -GREEN_PAGE_SIZE;
	char *b = mmap(0, SCHED_STACK + guard, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (b == MAP_FAILED) return EAGAIN;
	mprotect(b, guard, PROT_NONE);
	GREEN_VG_STACK_REGISTER(b + guard, b + guard + SCHED_STACK);
	sched_sp = __green_arch_make(b + guard + SCHED_STACK, sched_loop, 0);
	return 0;
}

/* from (whose slot is shared) -> to: through the scheduler context. */
hidden void __green_copied_leave(struct green_thread *from, struct green_thread *to)
{
	xfer_from = from;
	xfer_to = to;
	__green_arch_switch(&from->sp, sched_sp);
}

/* from -> to where to is a cold copied thread: to made hot (switch.h
 * then switches as to any other). */
hidden void __green_copied_load(struct green_thread *from, struct green_thread *to)
{
	load(to, from);
}

/* Zeroed memory of green's own, off the program's heap (whose layout,
 * and so what a use after free of the program's does, stays as it was). */
static void *zmap(size_t n)
{
	void *p = mmap(0, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? 0 : p;
}

/* An array of `size`-byte items grown from `have` to `want` items. */
static int grow(void *array, size_t size, size_t have, size_t want)
{
	void **a = array, *p = zmap(want * size);
	if (!p) return EAGAIN;
	if (*a) {
		memcpy(p, *a, have * size);
		munmap(*a, have * size);
	}
	*a = p;
	return 0;
}

/* Reserve a chunk of slots (pthread_create). */
static int chunk_add(void)
{
	size_t len = CHUNK_SLOTS * slot_size, rec = sizeof(struct chunk) + CHUNK_SLOTS * sizeof(struct slot);
	struct chunk *c;
	char *p;

	if (nchunks == chunks_cap) {
		unsigned cap = chunks_cap ? 2 * chunks_cap : 64;
		if (grow(&chunks, sizeof *chunks, chunks_cap, cap) ||
		    grow(&free_slot, sizeof *free_slot, (size_t)chunks_cap * CHUNK_SLOTS,
		         (size_t)cap * CHUNK_SLOTS))
			return EAGAIN;
		chunks_cap = cap;
	}
	if (!(c = zmap(rec))) return EAGAIN;
	p = mmap(0, len + SLOT_ALIGN, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		munmap(c, rec);
		return EAGAIN;
	}
	c->base = (char *)(((uintptr_t)p + SLOT_ALIGN - 1) & -SLOT_ALIGN);
	if (c->base > p) munmap(p, c->base - p);
	munmap(c->base + len, p + SLOT_ALIGN - c->base);
	chunks[nchunks++] = c;
	return 0;
}

/* The record of the slot at s. */
static struct slot *rec_of(const char *s)
{
	for (unsigned i = 0; i < nchunks; i++) {
		struct chunk *c = chunks[i];
		if (s >= c->base && s < c->base + CHUNK_SLOTS * slot_size)
			return &c->slot[(s - c->base) / slot_size];
	}
	return 0;
}

/* The k-th slot reserved. */
static char *slot_at(size_t k)
{
	return chunks[k / CHUNK_SLOTS]->base + k % CHUNK_SLOTS * slot_size;
}

/* A slot for t: a free one, the next of the newest chunk, or (past the
 * budget of a 32-bit CPU) one that other threads have too. */
static char *slot_get(struct green_thread *t, int *err)
{
	struct chunk *c;
	struct slot *r;
	char *s;

	if (!slot_size) {
		size_t g = (GREEN_GUARD_DEFAULT + GREEN_PAGE_SIZE - 1) & -GREEN_PAGE_SIZE;
		hot_max = __green_config.copied_hot ? __green_config.copied_hot : HOT_DEFAULT;
		hot_cap = __green_config.copied_hot ? hot_max : HOT_LIMIT;
		/* memcheck does not let a fault on an unmapped stack be taken
		 * and the access run again: under valgrind every stack stays */
		if (GREEN_ON_VALGRIND()) hot_max = hot_cap = HOT_LIMIT;
		if (!(hot = zmap(hot_cap * sizeof *hot))) { *err = EAGAIN; return 0; }
		slot_size = (__green_copied_room() + g + SLOT_ALIGN - 1) & -SLOT_ALIGN;
		slot_guard = slot_size - __green_copied_room();
		slot_max = GREEN_SLOT_SHARING ? SHARE_BUDGET / slot_size / CHUNK_SLOTS * CHUNK_SLOTS : (size_t)-1;
		if (!slot_max) slot_max = CHUNK_SLOTS;
	}
	if (nfree) {
		s = free_slot[--nfree];
	} else if (nslots < slot_max) {
		if ((!nchunks || chunks[nchunks - 1]->used == CHUNK_SLOTS) && (*err = chunk_add()))
			return 0;
		c = chunks[nchunks - 1];
		s = c->base + c->used++ * slot_size;
		nslots++;
		GREEN_VG_STACK_REGISTER(s + slot_guard - GREEN_PAGE_SIZE, s + slot_size);   /* for good */
	} else {
		if (!sched_sp && (*err = sched_init())) return 0;
		s = slot_at(share_next);
		share_next = (share_next + 1) % nslots;
	}
	r = rec_of(s);
	if (r->n && !r->shared) {   /* its one thread shares it from now on */
		struct green_thread *o = r->owner;
		r->shared = 1;
		o->shared = 1;
		if (o->hot && o != __green_cur) evict(o);
	}
	t->shared = r->shared;
	r->owner = r->shared ? 0 : t;
	r->n++;
	return s;
}

/* The slot holding a, and its record; 0 if none. */
static char *slot_of(const char *a, struct slot **rec)
{
	for (unsigned i = 0; i < nchunks; i++) {
		struct chunk *c = chunks[i];
		if (a >= c->base && a < c->base + CHUNK_SLOTS * slot_size) {
			size_t k = (a - c->base) / slot_size;
			*rec = &c->slot[k];
			return c->base + k * slot_size;
		}
	}
	return 0;
}

/* A descriptor for a new copied-stack thread, with a slot of its own. */
hidden struct green_thread *__green_copied_alloc(size_t size, int *err)
{
	struct green_thread *t;
	char *s;

	if (size > __green_copied_room()) {
		*err = EINVAL;   /* asked for copied and deeper than a slot:
		                  * docs/stacks.md (by default it gets a separate stack) */
		return 0;
	}
	/* the descriptor, and after it the memory for the thread's own TCB
	 * and TLS (tls.c): off the slot, so they cost no page while cold */
	t = calloc(1, sizeof *t + __green_tls_bytes);
	if (!t) {
		*err = EAGAIN;
		return 0;
	}
	if (!(s = slot_get(t, err))) {
		free(t);
		return 0;
	}
	t->tcb = t + 1;
	t->stack_mode = GREEN_STACK_COPIED;
	t->map_base = s;
	t->map_size = slot_size;
	/* coloured as separate stacks are (separate.c): the top of the stack
	 * up to 4032 bytes below the slot's, so that threads taking turns
	 * do not all put their top frames in the same sets of the caches;
	 * a page of the guard below is mapped with the stack for it */
	t->stack_lo = s + slot_guard - GREEN_PAGE_SIZE;
	t->stack_size = slot_size - slot_guard + GREEN_PAGE_SIZE - __green_next_colour();
	t->guard_size = slot_guard - GREEN_PAGE_SIZE;
	return t;
}

hidden void __green_copied_free(struct green_thread *t)
{
	struct slot *r;
	char *s = t->map_base;

	t->magic = 0;
	GREEN_ENTER();
	if (t->hot) {
		hot[t->hot_at] = 0;
		slot_drop(s);
	}
	if (slot_of(s, &r)) {
		if (r->owner == t) r->owner = 0;
		if (!--r->n) {
			r->shared = 0;
			free_slot[nfree++] = s;
		}
	}
	area_put(t->save, t->save_cap);
	GREEN_LEAVE();
	free(t->tsd);
	free(t);
}

/*
 * The process is about to die of a signal whose default action dumps
 * core: every parked cold thread's live stack goes back into its slot
 * (mapped, the save area copied in, marked hot; the ring is not kept:
 * nothing runs again), so that the core holds each copied thread's frames
 * at their own addresses and a debugger reads them as it reads separate
 * stacks (gdb/green-gdb.py).  Not where slots are shared (32-bit, past
 * the budget): one of the sharers' frames would cover another's.  Only
 * system calls and copies that a signal handler may make.
 */
hidden void __green_copied_for_core(void)
{
	for (struct green_thread *t = __green_all; t; t = t->all_next) {
		char *sp;
		if (t->stack_mode != GREEN_STACK_COPIED || t->hot || !t->started ||
		    t->shared || t->state == GS_EXITED || !t->save_len)
			continue;
		if (mprotect(t->stack_lo, mapped_len(), PROT_READ | PROT_WRITE)) continue;
		sp = (char *)t->sp + GREEN_ARCH_STACK_BIAS;
		memcpy(sp, t->save, t->save_len);
		t->hot = 1;
	}
}

/* The usable size of a slot: GREEN_COPIED_REGION, else as deep as a
 * separate stack's default (glibc's on a 64-bit CPU: address space, no
 * memory but what the thread touches and no copying but its live
 * part), or 1 MiB on a 32-bit CPU, whose address space is scarce. */
hidden size_t __green_copied_room(void)
{
	size_t size = __green_config.region_size ? __green_config.region_size :
	              sizeof(void *) < 8 ? (size_t)1 << 20 : green_stack_default();
	return (size + GREEN_PAGE_SIZE - 1) & -GREEN_PAGE_SIZE;
}

/* Is p in the stack of a copied thread? */
hidden int __green_in_region(const void *p)
{
	struct slot *r;
	return slot_of(p, &r) != 0;
}

/*
 * A system call failed with EFAULT: the kernel met a cold stack, which
 * it cannot load.  Load those that the n arguments point into; 1 if there
 * was one, and the call may be made again (src/stubs/__syscall_cp.c).
 */
hidden int __green_copied_touch(const long *arg, int n)
{
	struct green_thread *t;
	struct slot *r;
	int loaded = 0;

	GREEN_ENTER();
	for (int i = 0; i < n; i++) {
		if (!slot_of((const char *)arg[i], &r) || !(t = r->owner)) continue;
		if (t->magic != GREEN_MAGIC || t->hot || (const char *)arg[i] < (char *)t->stack_lo) continue;
		load(t, 0);
		loaded = 1;
	}
	GREEN_LEAVE();
	return loaded;
}

/* A fault in a shared slot (32-bit CPUs): the running thread's overflow,
 * or a touch that cannot be told whose it is; named, never loaded. */
static int shared_fault(const char *s, const char *a, int *named)
{
	struct green_thread *t, *me = __green_cur;
	char buf[80], who[400];
	size_t len = 0, k = 0;

	__green_describe(me, buf, sizeof buf);
	*named = 1;
	if (a < s + slot_guard - GREEN_PAGE_SIZE) {
		__green_say("green: %s overflowed its copied stack of %zu bytes "
		            "(fault at %p; GREEN_COPIED_REGION sets its size)\n",
		            buf, slot_size - slot_guard, (const void *)a);
		return 0;
	}
	who[0] = 0;
	for (t = __green_all; t; t = t->all_next) {
		char *sp = (char *)t->sp + GREEN_ARCH_STACK_BIAS;
		if (t == me || t->stack_mode != GREEN_STACK_COPIED || t->map_base != s ||
		    t->state == GS_EXITED || !t->started || a < sp)
			continue;
		if (k++ < 4 && len + 100 < sizeof who) {
			len += snprintf(who + len, sizeof who - len, "%s", len ? ", " : "");
			__green_describe(t, who + len, sizeof who - len);
			len += strlen(who + len);
		}
	}
	if (k > 4) snprintf(who + len, sizeof who - len, " and %zu more", k - 4);
	__green_say("green: %s touched %p, in the copied stack slot shared by %s: "
	            "with more than %zu copied threads at once a 32-bit process "
	            "shares slots, and their stacks cannot be reached from another "
	            "thread (docs/stacks.md)\n",
	            buf, (const void *)a, k ? who : "no live frames", slot_max);
	return 0;
}

/*
 * The SIGSEGV handler's question: is a fault at a ours?  1 when it loaded
 * a cold thread's stack there (the access may run again); 0 otherwise,
 * with *named set when it has said on stderr whose fault it was.
 */
hidden int __green_copied_fault(const char *a, int *named)
{
	struct green_thread *t;
	struct slot *r;
	char *s = slot_of(a, &r), buf[80], buf2[80];

	if (!s || __syscall(SYS_gettid) != __green_pid)
		return 0;   /* not a slot, or a kernel thread of the library's own (aio) */
	if (r->shared) return shared_fault(s, a, named);
	t = r->owner;
	__green_describe(__green_cur, buf, sizeof buf);
	if (!t || t->magic != GREEN_MAGIC) {
		__green_say("green: %s touched %p, in the copied stack of a thread that has exited\n",
		            buf, (const void *)a);
		*named = 1;
		return 0;
	}
	if (a < (char *)t->stack_lo) {
		__green_describe(t, buf2, sizeof buf2);
		__green_say("green: %s overflowed its copied stack of %zu bytes "
		            "(fault at %p; GREEN_COPIED_REGION sets its size)\n",
		            buf2, t->stack_size, (const void *)a);
		*named = 1;
		return 0;
	}
	if (t->hot || t == __green_cur) return 0;
	load(t, 0);   /* inside the SIGSEGV handler's no-preempt section (separate.c) */
	return 1;
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
