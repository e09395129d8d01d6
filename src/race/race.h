/*
 * race.h — the data-race detector of `green-cc --race` (docs/race.md).
 *
 * The program is compiled with gcc's thread-sanitizer instrumentation
 * (-fsanitize=thread at compile time only): every load and store of its
 * own code calls __tsan_readN/__tsan_writeN, every function calls
 * __tsan_func_entry/__tsan_func_exit, every atomic operation is a call
 * __tsan_atomicN_*.  This runtime answers those calls, and green-cc links
 * it as one object (lib/green/race.o) with the thread, lock, descriptor
 * and heap entry points wrapped (`ld --wrap`), so that the plain library
 * is unchanged and a program built without --race pays nothing.
 *
 * Model: happens-before with vector clocks.  Each thread has a clock per
 * thread it knows of (vc[t] = the last event of t it has synchronised
 * with; vc[self] = its own current epoch).  An access is remembered in the
 * shadow of its 8-byte granule as an epoch (thread, clock), the bytes it
 * touched, its kind, and where it happened; an earlier access by thread u
 * at clock c happened before the current one iff c <= vc[u] (FastTrack's
 * epoch test).  Each granule keeps up to RACE_NREC such records
 * (shadow.c says which are kept).
 *
 * Synchronisation objects (mutexes, rwlocks, semaphores, barriers, once
 * controls, spin locks, atomic variables, descriptors) get a clock of
 * their own, found by address: a release joins the thread's clock into it
 * and advances the thread's epoch; an acquire joins it into the thread's.
 * The libc's objects are memory too: initialising or destroying one is a
 * write to it, using it a read, as ThreadSanitizer models them.
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

#define RACE_NREC 4                  /* access records per 8-byte granule */
#define RACE_TID_BITS 19
#define RACE_FREED_TID ((1u << RACE_TID_BITS) - 1)   /* the record of a free */
#define RACE_MAX_TID (RACE_FREED_TID - 1)
#define RACE_CLOCK_BITS 34
#define RACE_CLOCK_MAX ((1ull << RACE_CLOCK_BITS) - 1)
#define RACE_STACK_MAX 4096          /* shadow call stack frames kept per thread */
#define RACE_NODE_LAZY 0xffffffffu   /* the running function's stack, interned when needed */
#define RACE_LOCKSET_PC 0x80000000u  /* a stack node whose pc names a lockset */
#define RACE_HELD_MAX 32             /* locks a thread is seen holding at once */

/*
 * One remembered access (12 bytes): an info word (0: empty) and a
 * context.  info, from the low bits: the bytes of the granule touched (a
 * mask), write, atomic, INFO_X, the thread (RACE_TID_BITS), its clock
 * (RACE_CLOCK_BITS).  INFO_X, set in a granule's first record only, says
 * that its other records are in a block (shadow.c).  The context is a
 * stack node (callstack.c) whose pc is the access's and whose parent its
 * call stack, perhaps with the locks held above it.  A free leaves a
 * record of thread RACE_FREED_TID (every byte, a write) whose clock is
 * the freeing thread's tid + 1 (no thread's clock has an entry for
 * RACE_FREED_TID, so nothing is ordered after it) and whose context is
 * the free's stack.
 */
#define INFO_W (1ull << 8)
#define INFO_A (1ull << 9)
#define INFO_X (1ull << 10)
#define INFO_TID_SHIFT 11
#define INFO_CLOCK_SHIFT (INFO_TID_SHIFT + RACE_TID_BITS)
#define INFO_MASK(i)  ((unsigned)(i) & 0xff)
#define INFO_TID(i)   ((unsigned)((i) >> INFO_TID_SHIFT) & RACE_FREED_TID)
#define INFO_CLOCK(i) ((i) >> INFO_CLOCK_SHIFT)

/* A vector clock: v[t] for t < n; absent entries are 0. */
struct race_vc {
	uint64_t *v;
	uint32_t n, cap;
};

struct race_frame {
	uint32_t pc;                 /* the call site in the caller (text offset) */
	uint32_t node;               /* interned stack up to and including this frame, 0 = not yet */
};

struct race_held {
	uint32_t mid;                /* the mutex (lockset.c) */
	unsigned char write;
	unsigned short count;        /* recursive locks */
};

/* A thread as the detector knows it.  Never freed: a report can name a
 * thread long gone. */
struct race_thread {
	struct green_thread *g;      /* green's descriptor while it runs this thread */
	unsigned gid;                /* green's thread id (gdb, green's reports), 0 until started */
	unsigned tid;                /* index in the vector clocks; T<tid> in reports */
	unsigned ign[2];             /* ignore reads [0], writes [1] (annotations, __tsan_mutex_*) */
	unsigned ign_sync;           /* ignore synchronisation (AnnotateIgnoreSyncBegin) */
	unsigned char vptr;          /* in a C++ virtual-table pointer access (access.c) */
	void *(*fn)(void *);         /* the start routine and its argument */
	void *arg;
	struct race_vc vc;
	char name[16];
	unsigned char created;       /* by pthread_create or thrd_create (not by green itself) */
	unsigned char joined, detached, exited;
	uint32_t create_node, create_pc;   /* where its creator called pthread_create */
	unsigned creator;                  /* the creator's tid */
	unsigned depth;                    /* shadow call stack */
	struct race_frame *stack;
	struct race_held held[RACE_HELD_MAX];
	unsigned nheld;
	uint32_t lockset;                  /* the set held, interned (lockset.c); 0 = none */
	uint32_t ctx_node, ctx_set, ctx;   /* the last stack + lockset node made */
	void (*once_fn)(void);             /* pthread_once in progress (sync.c) */
	void *once_obj;
	struct race_vc rel_fence;          /* clock at the last release fence (atomic_edges.c) */
	struct race_vc acq_pending;        /* clocks read by relaxed loads since (atomic_edges.c) */
	unsigned char fenced;
};

/* A synchronisation object's clocks. */
struct race_sync {
	uintptr_t addr;
	struct race_vc vc;           /* released by writers, unlockers, posters */
	struct race_vc rvc;          /* released by readers of an rwlock */
	unsigned writer;             /* rwlock: tid+1 of the write holder; barrier: its count */
	uint64_t arrivals;           /* barrier: arrivals since pthread_barrier_init */
	uint32_t mid;                /* a lock's incarnation (lockset.c), 0 = none yet */
	struct race_sync *page_next; /* the other objects of its 4 KiB page (vclock.c) */
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

/* The detector's own file reads call the libc's entry points past their
 * wrappers (fd.c), which would record them as the program's. */
int __real_open(const char *, int, ...);
int __real_close(int);
long __real_read(int, void *, size_t);

/* ---- threads.c */
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
hidden uint32_t __race_ctx(struct race_thread *);        /* the same with the locks held */
hidden uint32_t __race_pc(const void *ret);               /* a return address as a call-site offset */
/* The stack of a call into the libc's entry point `fn` from the
 * instrumented caller whose return address is ret: fn is its top frame. */
hidden void __race_entry(struct race_thread *, const void *fn, const void *ret,
                         uint32_t *node, uint32_t *pc);
hidden struct race_thread *__race_of_pthread(pthread_t);
hidden void __race_report_leaks(void);

/* ---- vclock.c */
hidden void __race_vc_join(struct race_vc *to, const struct race_vc *from);
hidden void __race_vc_copy(struct race_vc *to, const struct race_vc *from);
hidden void __race_vc_set(struct race_vc *, unsigned t, uint64_t v);
hidden void __race_vc_clear(struct race_vc *);
static inline uint64_t race_vc_get(const struct race_vc *c, unsigned t)
{
	return t < c->n ? c->v[t] : 0;
}
hidden struct race_sync *__race_sync(const void *addr, int create);
hidden void __race_sync_forget(const void *addr);
hidden void __race_sync_forget_range(uintptr_t addr, size_t size);
hidden void __race_acquire(struct race_thread *, const void *addr);
hidden void __race_release(struct race_thread *, const void *addr);
hidden void __race_tick(struct race_thread *);            /* a new epoch after a release */
hidden void *__race_alloc(size_t);                         /* zeroed, never freed */

/* ---- map.c: address -> pointer, open addressing */
struct race_map {
	uintptr_t *keys;             /* 0 = empty, 1 = deleted */
	void **vals;
	size_t cap, used, live;
};
hidden void *__race_map_get(const struct race_map *, uintptr_t key);
hidden void __race_map_put(struct race_map *, uintptr_t key, void *val);
hidden void __race_map_del(struct race_map *, uintptr_t key);

/* ---- shadow.c: the shadow of 1 GiB regions.  A region's shadow starts
 * RACE_SHADOW_SKEW bytes past a multiple of RACE_SHADOW_SPAN: the info
 * word of each granule's first record (8 bytes each, RACE_PLANE_BYTES),
 * then a 4-byte word per granule (RACE_AUX): the first record's context,
 * or, when INFO_X is set
 * in its info, the block of the granule's other records.  A block of
 * class c (1 to RACE_NREC - 1) holds c records, the granule's second to
 * last: c info words, then c contexts and the first record's context;
 * it is named by its place in the pool in 8-byte units, class c's blocks
 * taking the units from c << 30 (so that the name gives the class). */
#define RACE_REGION_SHIFT 30
#define RACE_NREGION (1u << (47 - RACE_REGION_SHIFT))
#define RACE_PLANE_BYTES ((size_t)8 << (RACE_REGION_SHIFT - 3))
#define RACE_SHADOW_SPAN ((uintptr_t)1 << 31)
#define RACE_SHADOW_SKEW 0x8c0        /* where the plane starts in its span (shadow.c) */
#define RACE_AUX(i0) ((uint32_t *)(((uintptr_t)(i0) & ~(RACE_SHADOW_SPAN - 1)) + RACE_PLANE_BYTES + \
                                   RACE_SHADOW_SKEW + (((uintptr_t)(i0) & (RACE_SHADOW_SPAN - 1)) >> 1)))
#define RACE_EXT_CLASS(x) ((unsigned)(x) >> 30)
extern hidden uint64_t *__race_pool;   /* class c's blocks at units c << 30 .. */
/* the block named x: its info words */
static inline uint64_t *race_ext(uint32_t x)
{
	return __race_pool + x;
}
extern hidden char *__race_region[RACE_NREGION];
/* the info word of the first record of a's granule, or 0 if its region
 * has no shadow yet (nothing was recorded there) */
static inline uint64_t *race_shadow_if(uintptr_t a)
{
	size_t r = a >> RACE_REGION_SHIFT;
	return r < RACE_NREGION && __race_region[r] ?
	       (uint64_t *)__race_region[r] + ((a & ((1ul << RACE_REGION_SHIFT) - 1)) >> 3) : 0;
}
hidden void __race_access(struct race_thread *, uintptr_t addr, size_t size,
                          int write, int atomic, uint32_t node, uint32_t pc);
hidden void __race_check_free(struct race_thread *, uintptr_t addr, size_t size,
                              uint32_t node, uint32_t pc);
hidden void __race_shadow_freed(uintptr_t addr, size_t size, unsigned tid, uint32_t node);
hidden void __race_shadow_reset(uintptr_t addr, size_t size);

/* ---- callstack.c: call stacks interned as (parent, pc) chains */
hidden uint32_t __race_node(uint32_t parent, uint32_t pc);
hidden void __race_node_get(uint32_t node, uint32_t *parent, uint32_t *pc);

/* ---- lockset.c: the locks a thread holds, and each lock's creation */
struct race_mutex {
	uintptr_t addr;
	unsigned tid;                /* the creating thread */
	uint32_t node, pc;           /* where it was created (or first locked) */
	unsigned char destroyed;
};
hidden uint32_t __race_mutex_of(struct race_thread *, struct race_sync *, const void *fn,
                                const void *ret);
hidden void __race_mutex_created(struct race_thread *, const void *addr, const void *fn,
                                 const void *ret);
hidden void __race_mutex_destroyed(const void *addr);
hidden const struct race_mutex *__race_mutex_get(uint32_t mid);
hidden void __race_locked(struct race_thread *, uint32_t mid, int write);
hidden void __race_unlocked(struct race_thread *, uint32_t mid);
hidden unsigned __race_lockset_get(uint32_t set, uint32_t *mids, unsigned char *writes,
                                   unsigned max);

/* ---- heap.c */
struct race_block {
	uintptr_t addr;
	size_t size;
	unsigned tid;                /* allocating thread */
	uint32_t node, pc;           /* where it was allocated (pc: the allocating function) */
	unsigned freed_by;           /* tid+1 once freed */
	uint32_t free_node;
};
hidden int __race_block_find(uintptr_t addr, struct race_block *out);

/* ---- fd.c */
hidden int __race_fd_of(uintptr_t addr, unsigned *tid, uint32_t *node, uint32_t *pc);

/* ---- options.c: TSAN_OPTIONS, __tsan_default_options, GREEN_RACE_* */
struct race_options {
	int halt_on_error;
	int exitcode;
	int report_bugs;
	int report_thread_leaks;
	const char *suppressions;    /* the file's path, or 0 */
};
extern hidden struct race_options __race_opt;
extern hidden const char *__race_strip_prefix;
hidden void __race_options_init(void);
/* suppressions of `kind` ("race", "thread") matching name */
hidden int __race_suppressed(const char *kind, const char *name);
hidden int __race_have_suppressions(void);

/* ---- annotate.c */
hidden int __race_benign(uintptr_t addr, size_t size);

/* ---- elf.c: the executable's own symbols */
hidden const char *__race_func_at(uintptr_t pc, char *buf, size_t len, uintptr_t *start);
hidden const char *__race_object_at(uintptr_t a, char *buf, size_t len, uintptr_t *start,
                                    size_t *size);
hidden void *__race_symbol(const char *name);
hidden const char *__race_exe_name(void);
hidden uintptr_t __race_bias(void);
hidden const char *__race_demangle(const char *name, char *buf, size_t len);
hidden const void *__race_section(const char *name, size_t *size);

/* ---- dwarf.c: file and line of a pc, from the program's .debug_line */
hidden int __race_line_of(uintptr_t pc, const char **dir, const char **file, unsigned *line);
hidden int __race_line_file(uint64_t unit, uint64_t index, const char **dir, const char **file);

/* ---- inline.c: the calls inlined at a pc, from .debug_info */
struct race_inlined {
	const char *name;            /* the inlined function (0: unknown) */
	uint64_t unit;               /* its call site: the unit's .debug_line offset, */
	uint64_t file;               /* file number and line */
	unsigned line;
};
hidden int __race_inlined(uintptr_t pc, struct race_inlined *out, int max);

/* ---- print.c */
struct race_access {
	unsigned tid;
	int write, atomic;
	uintptr_t addr;
	unsigned size;
	uint32_t node, pc;
};
hidden void __race_report(const struct race_access *cur, const struct race_access *old,
                          int use_after_free);
hidden void __race_say_exit(void);
extern hidden int __race_nreports;

#endif
