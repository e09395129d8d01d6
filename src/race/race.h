/*
 * race.h — the data-race detector of `green-cc --race` (docs/race.md).
 *
 * The program is compiled with gcc's thread-sanitizer instrumentation
 * (-fsanitize=thread at compile time only): every load and store of its
 * own code calls __tsan_readN/__tsan_writeN, every function calls
 * __tsan_func_entry/__tsan_func_exit, every atomic operation is a call
 * __tsan_atomicN_*.  This runtime answers those calls, and green-cc links
 * it as one object (lib/green/race.o) with the thread, lock and heap entry
 * points wrapped (`ld --wrap`), so that the plain library is unchanged and
 * a program built without --race pays nothing.
 *
 * Model: happens-before with vector clocks.  Each thread has a clock per
 * thread it knows of (vc[t] = the last event of t it has synchronised
 * with; vc[self] = its own current epoch).  An access is remembered in the
 * shadow of its 8-byte granule as an epoch (thread, clock) plus where it
 * happened; an earlier access by thread u at clock c happened before the
 * current one iff c <= vc[u] (FastTrack's epoch test).  Each granule keeps
 * NCELL such records; a record for the same thread and bytes is
 * overwritten, otherwise a free one is taken, else one is evicted (a race
 * with the evicted access can then go unseen).
 *
 * Synchronisation objects (mutexes, rwlocks, semaphores, barriers, once
 * controls, spin locks, atomic variables) get a clock of their own, found
 * by address: a release joins the thread's clock into it and advances the
 * thread's epoch; an acquire joins it into the thread's.
 *
 * Everything here runs on green's one kernel thread inside a no-preempt
 * section (race_enter/race_leave), so that no tick switches threads in the
 * middle of an update; the program's own signal handlers are deferred by
 * the same section.  Leaving it does the pending work of a tick but is
 * never a GREEN_SCHED scheduling point: a --race build takes the same
 * schedule for a seed as the plain build's library calls do.
 */
#ifndef GREEN_RACE_H
#define GREEN_RACE_H

#include <stdint.h>
#include <stddef.h>
#include "base/gthread.h"
#include "base/section.h"

#define RACE_NCELL 4                 /* access records per 8-byte granule */
#define RACE_MAX_TID ((1u << 20) - 1)
#define RACE_CLOCK_BITS 37
#define RACE_STACK_MAX 4096          /* shadow call stack frames kept per thread */
#define RACE_PC_FREE 0xffffffffu     /* the access was a free() of the block */
#define RACE_NODE_LAZY 0xffffffffu   /* the running function's stack, interned when needed */

/* One remembered access (16 bytes; info == 0: empty). */
struct race_cell {
	uint64_t info;               /* clock:37 tid:20 off:3 sizelog:2 write:1 atomic:1 */
	uint32_t node;               /* call stack (stack.c) of the function that accessed */
	uint32_t pc;                 /* the access, as an offset from the text base */
};

#define CELL_CLOCK(i)  ((i) & ((1ull << RACE_CLOCK_BITS) - 1))
#define CELL_TID(i)    ((unsigned)((i) >> 37) & RACE_MAX_TID)
#define CELL_OFF(i)    ((unsigned)((i) >> 57) & 7)
#define CELL_SLOG(i)   ((unsigned)((i) >> 60) & 3)
#define CELL_WRITE(i)  ((unsigned)((i) >> 62) & 1)
#define CELL_ATOMIC(i) ((unsigned)((i) >> 63))

/* A vector clock: v[t] for t < n; absent entries are 0. */
struct race_vc {
	uint64_t *v;
	uint32_t n, cap;
};

struct race_frame {
	uint32_t pc;                 /* the call site in the caller (text offset) */
	uint32_t node;               /* interned stack up to and including this frame, 0 = not yet */
};

/* A thread as the detector knows it.  Never freed: a report can name a
 * thread long gone. */
struct race_thread {
	struct green_thread *g;      /* green's descriptor while it runs this thread */
	unsigned gid;                /* green's thread id (gdb, green's reports), 0 until started */
	unsigned tid;                /* index in the vector clocks */
	void *(*fn)(void *);         /* the start routine and its argument */
	void *arg;
	struct race_vc vc;
	char name[16];
	unsigned char finished;
	uint32_t create_node, create_pc;   /* where its creator called pthread_create */
	unsigned creator;                  /* the creator's tid */
	unsigned depth;                    /* shadow call stack */
	struct race_frame *stack;
	void (*once_fn)(void);             /* pthread_once in progress (sync.c) */
	void *once_obj;
	struct race_vc rel_fence;          /* clock at the last release fence (atomic.c) */
	struct race_vc acq_pending;        /* clocks read by relaxed loads since (atomic.c) */
	unsigned char fenced;
};

/* A synchronisation object's clocks. */
struct race_sync {
	uintptr_t addr;              /* 0 = free slot, 1 = deleted */
	struct race_vc vc;           /* released by writers, unlockers, posters */
	struct race_vc rvc;          /* released by readers of an rwlock */
	unsigned writer;             /* rwlock: tid+1 of the write holder; barrier: its count */
	uint64_t arrivals;           /* barrier: arrivals since pthread_barrier_init */
};

/* ---- the section every entry point runs in */
static inline void race_enter(void)
{
	green_np_up();
}

/* Leave: do a tick's pending work (a slice, a signal), but never make a
 * GREEN_SCHED scheduling point of it. */
static inline void race_leave(void)
{
	green_barrier();
	if (!--__green_np &&
	    (__green_pending.any & ~(0xffull << (8 * GREEN_PEND_EXPLORE))))
		__green_preempt_now();
}

/* A wrapper (`ld --wrap`) that calls the real entry point and, when it
 * returned `ok`, does `then` (an edge). */
#define RACE_AFTER(type, name, params, args, ok, then) \
	type __real_##name params; \
	type __wrap_##name params \
	{ \
		type r_ = __real_##name args; \
		if (r_ == (ok)) then; \
		return r_; \
	}

/* ---- thread.c */
extern hidden struct race_thread **__race_threads;   /* by tid */
extern hidden unsigned __race_nthreads;
extern hidden struct race_thread *__race_cache;      /* the last thread looked up */
extern hidden uintptr_t __race_text;                  /* pcs are kept as offsets from it */
hidden struct race_thread *__race_self_slow(void);
/* The running thread's record.  The cache is one pointer checked against
 * the descriptor it names, so a tick between the load and the check
 * cannot hand one thread another's record. */
static inline struct race_thread *race_self(void)
{
	struct race_thread *r = __race_cache;
	struct green_thread *g = __green_cur;
	if (r && r->g == g && r->gid == g->id) return r;
	return __race_self_slow();
}
hidden void __race_init(void);
hidden uint32_t __race_top_node(struct race_thread *);   /* stack of the running function */
hidden uint32_t __race_pc(const void *ret);               /* a return address as a call-site offset */

/* ---- clock.c */
hidden void __race_vc_join(struct race_vc *to, const struct race_vc *from);
hidden void __race_vc_copy(struct race_vc *to, const struct race_vc *from);
hidden void __race_vc_set(struct race_vc *, unsigned t, uint64_t v);
static inline uint64_t race_vc_get(const struct race_vc *c, unsigned t)
{
	return t < c->n ? c->v[t] : 0;
}
hidden struct race_sync *__race_sync(const void *addr, int create);
hidden void __race_sync_forget(const void *addr);
hidden void __race_acquire(struct race_thread *, const void *addr);
hidden void __race_release(struct race_thread *, const void *addr);
hidden void __race_tick(struct race_thread *);            /* a new epoch after a release */
hidden void *__race_alloc(size_t);                         /* zeroed, never freed */

/* ---- shadow.c */
hidden void __race_access(struct race_thread *, uintptr_t addr, unsigned size,
                          int write, int atomic, uint32_t node, uint32_t pc);
hidden void __race_range(struct race_thread *, uintptr_t addr, size_t size, int write,
                         uint32_t node, uint32_t pc);
hidden void __race_shadow_reset(uintptr_t addr, size_t size);

/* ---- stack.c: call stacks interned as (parent, pc) chains */
hidden uint32_t __race_node(uint32_t parent, uint32_t pc);
hidden void __race_node_get(uint32_t node, uint32_t *parent, uint32_t *pc);

/* ---- heap.c */
struct race_block {
	uintptr_t addr;
	size_t size;
	unsigned tid;                /* allocating thread */
	uint32_t node, pc;           /* where it was allocated */
	unsigned freed_by;           /* tid+1 once freed */
	uint32_t free_node, free_pc;
};
hidden int __race_block_find(uintptr_t addr, struct race_block *out);

/* ---- report.c */
struct race_access {
	unsigned tid;
	int write, atomic;
	unsigned size;
	uint32_t node, pc;
};
hidden void __race_report(uintptr_t addr, const struct race_access *cur,
                          const struct race_access *old);
extern hidden int __race_nreports;

#endif
