/*
 * separate.c — separate stacks: allocation, the cache, guard pages.
 *
 * A separate stack is one anonymous mapping:
 *
 *   map_base                                                    map_base+map_size
 *   | guard (PROT_NONE) | stack, grows down ... | TCB+TLS | descriptor | TSD slots |
 *                       ^stack_lo             ^ top
 *
 * The thread's own TCB and static TLS block (only when the program has a
 * TLS segment: tls.c), the descriptor and the thread-specific-data slots
 * sit at the top of the mapping, as musl puts a kernel thread's TCB and
 * TLS above its stack, so creating a thread costs one mmap and one
 * mprotect — or
 * nothing, when a stack of the same size waits in the cache.  Sizes are
 * rounded up to whole pages (the granularity, Marovich 3.3.4), and the
 * guard sits right below the size asked for, so that a thread that
 * overflows it by a page faults, as with glibc (the TCB, descriptor and
 * TSD slots are above it, not inside it).  The default size is glibc's
 * on a 64-bit CPU (__green_stack_default).
 *
 * Each stack is registered with valgrind so memcheck follows switches.
 *
 * Colour: the top of each mapping (TCB, descriptor, the stack's first
 * frames) is moved down by a multiple of 64 bytes under 4 KiB, dealt to
 * new threads in turn, so any 64 threads created one after another have
 * 64 different colours.  Without it every thread's descriptor and
 * hot frames sit at the same offset in a page, so they all fall in the
 * same few sets of the CPU's caches, and a thousand threads switching in
 * turn evict one another from a cache with room for all of them
 * (docs/stacks.md).  The colour is room between the stack and the top
 * block: the usable stack is the size asked and the colour, never less
 * than asked, less than a page more.
 *
 * Overflow: the guard page below each stack makes an overflowing thread
 * fault.  A SIGSEGV handler on an alternate stack looks the fault address
 * up among the guard pages; if it is one, it names the thread and its
 * stack size on stderr before the process dies of the SIGSEGV.  Any
 * other fault that nothing catches names the faulting thread too.
 */
#include <sys/mman.h>
#include <sys/resource.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <errno.h>
#include "base/gthread.h"
#include "base/section.h"
#include "stack/gstack.h"
#include "base/report.h"
#include "base/gconfig.h"
#include "signal/gsignal.h"
#include "base/valgrind-glue.h"

#define CACHE_MAX 32

struct cached {
	void *base;
	size_t size, guard;
	unsigned vg_id;
};
static struct cached cache[CACHE_MAX];
static int ncached;

static size_t page_round(size_t n)
{
	size_t p = GREEN_PAGE_SIZE;
	if (n > SIZE_MAX - p) return 0;
	return (n + p - 1) & -p;
}

static size_t round64(size_t n)
{
	return (n + 63) & -(size_t)64;
}

/* The room for the TCB and TLS below a descriptor (0 when threads share
 * the initial TCB): read once per allocation, and handed to carve and
 * clear. */
static size_t tls_room(void)
{
	return round64(__green_tls_bytes);
}

/* TCB and TLS (tls bytes, or nothing), descriptor, TSD slots: carved
 * from the top of a stack. */
static size_t top_bytes(size_t tls)
{
	return tls + round64(sizeof(struct green_thread) + PTHREAD_KEYS_MAX * sizeof(void *));
}

/* A colour is one of the 64-byte lines of the span after which a cache
 * maps addresses to its sets again (4 KiB for the L1 caches of these
 * CPUs), whatever the page size. */
#define COLOUR_SPAN 4096
#define COLOUR_LINE 64
#define COLOUR_ROOM (COLOUR_SPAN - COLOUR_LINE)   /* the largest colour */

/* The next thread's colour: the colours in turn, so that any 64 threads
 * created one after another have 64 (a hash of the mapping's address
 * gives too few for some spacings: docs/stacks.md).  A cached mapping
 * takes the next colour like a new one: COLOUR_ROOM is there for any of
 * them. */
hidden size_t __green_next_colour(void)
{
	static unsigned turn;
	return (size_t)(turn++ % (COLOUR_SPAN / COLOUR_LINE)) * COLOUR_LINE;
}

/* The descriptor at the top of [lo, lo+len), below it the memory for the
 * TCB and TLS, above it the TSD slots (zeroed at their first use,
 * key.c): the stack's fields set, the rest left to clear(). */
static struct green_thread *carve(void *lo, size_t len, size_t tls_len)
{
	char *top = (char *)lo + len, *tls = top - top_bytes(tls_len);
	struct green_thread *t = (void *)(tls + tls_len);
	t->tsd = (void **)(t + 1);
	t->stack_lo = lo;
	t->stack_size = tls - (char *)lo;
	return t;
}

/* Sixteen bytes, stored as one (an SSE register on x86_64; the
 * compiler splits it where the CPU has no such store), at the
 * alignment of the descriptor's own type: a descriptor carved from the
 * program's own stack (adopt) need not be 16-byte aligned, and a
 * strict-alignment CPU (SPARC) then makes each half one 8-byte store,
 * not eight byte stores. */
typedef unsigned char zero16 __attribute__((vector_size(16), may_alias,
                                            aligned(_Alignof(struct green_thread))));

/* The descriptor's fields that start out zero (gthread.h), and the
 * memory below it for the TCB, zeroed; t->tcb is left there (tls.c
 * makes the TCB).  The last step of an allocation: the other fields
 * are set already, the call's arguments all that is live.  The head
 * is 16-byte stores in line (twenty on x86_64), the loop unrolled (else the
 * compiler makes it a memset again): for so few bytes memset's
 * rep stosq costs more, its start-up alone tens of cycles, and an
 * instruction count takes each of its 40 steps as one.  The TCB's size
 * is known only at run time: memset zeroes it. */
static inline __attribute__((always_inline)) struct green_thread *clear(struct green_thread *t, size_t tls_len)
{
	zero16 *head = (zero16 *)t;

	if (tls_len) memset((char *)t - tls_len, 0, tls_len);
#pragma GCC unroll 64
	for (size_t i = 0; i < GREEN_THREAD_ZEROED / sizeof *head; i++)
		head[i] = (zero16){ 0 };
	/* where the CPU's alignment rules leave the head no multiple of 16
	 * bytes (m68k), its last few: a constant size, a few stores */
	if (GREEN_THREAD_ZEROED % sizeof *head)
		memset((char *)t + GREEN_THREAD_ZEROED / sizeof *head * sizeof *head, 0,
		       GREEN_THREAD_ZEROED % sizeof *head);
	t->tcb = (char *)t - tls_len;
	return t;
}

/* A new mapping of total bytes, its lowest guard bytes inaccessible,
 * registered with valgrind as a stack; 0 when there is no memory. */
static __attribute__((noinline)) void *map(size_t total, size_t guard, unsigned *vg_id)
{
	void *base = mmap(0, total, PROT_READ | PROT_WRITE,
	                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

	if (base == MAP_FAILED) return 0;
	if (guard && mprotect(base, guard, PROT_NONE)) {
		munmap(base, total);
		return 0;
	}
	*vg_id = GREEN_VG_STACK_REGISTER((char *)base + guard, (char *)base + total);
	return base;
}

/* The default stack size once known (green_stack_default, gstack.h):
 * asked at the first thread, or set by pthread_setattr_default_np. */
hidden size_t __green_stack_default_now;

/* A thread's stack when neither the program nor GREEN_STACK_SIZE names a
 * size.  On a 64-bit CPU glibc's: RLIMIT_STACK's soft limit, 2 MiB
 * where that is unlimited, at least PTHREAD_STACK_MIN: a deep stack
 * costs address space, and memory only where it is touched, and
 * programs written for glibc keep large buffers on their stacks.  On a
 * 32-bit CPU, where a few hundred such stacks would fill the address
 * space, musl's 128 KiB. */
hidden size_t __green_stack_default_ask(void)
{
	struct rlimit rl;
	size_t size = 2 << 20;

	if (sizeof(void *) < 8) size = GREEN_STACK_DEFAULT_32;
	else if (!getrlimit(RLIMIT_STACK, &rl) && rl.rlim_cur != RLIM_INFINITY)
		size = rl.rlim_cur < PTHREAD_STACK_MIN ? PTHREAD_STACK_MIN : page_round(rl.rlim_cur);
	return __green_stack_default_now = size;
}

hidden size_t __green_stack_default(void)
{
	return green_stack_default();
}

hidden struct green_thread *__green_stack_alloc(size_t size, size_t guard, int *err)
{
	struct green_thread *t;
	struct cached c;
	static size_t top_pages;
	size_t tls = tls_room(), span;
	unsigned vg_id = 0;
	int i;

	/* the stack, then the colour and the top block (their pages the
	 * same for every thread: the TLS block's size is fixed once the
	 * first thread exists); a size is never near SIZE_MAX (the setter,
	 * GREEN_STACK_SIZE and the default all stay far below) */
	if (!top_pages) top_pages = page_round(top_bytes(tls) + COLOUR_ROOM);
	if (!size) size = green_stack_default();
	size = page_round(size);
	span = size + top_pages;
	guard = page_round(guard);
	if (!size || span + guard < span) { *err = EINVAL; return 0; }

	for (i = ncached - 1; i >= 0; i--)
		if (cache[i].size == span + guard && cache[i].guard == guard) break;
	if (i >= 0) {
		c = cache[i];
		if (i != --ncached) cache[i] = cache[ncached];
		/* memcheck marked what was below the last thread's stack
		 * pointer inaccessible; the new colour may put the top
		 * block there */
		GREEN_VG_MAKE_UNDEFINED((char *)c.base + guard, span);
	} else {
		void *base = map(span + guard, guard, &vg_id);
		if (!base) { *err = EAGAIN; return 0; }
		c = (struct cached){ base, span + guard, guard, vg_id };
	}
	t = carve((char *)c.base + guard, size + __green_next_colour() + top_bytes(tls), tls);
	t->map_base = c.base;
	t->map_size = c.size;
	t->guard_size = guard;
	t->own_stack = 1;
	t->user_stack = 0;
	t->vg_id = c.vg_id;
	return clear(t, tls);
}

/* pthread_attr_setstack: the program owns the memory; no guard. */
hidden struct green_thread *__green_stack_adopt(void *addr, size_t size, int *err)
{
	struct green_thread *t;
	size_t tls = tls_room(), top = top_bytes(tls), blk_size;
	void *blk;

	if (size < PTHREAD_STACK_MIN) { *err = EINVAL; return 0; }
	if (size > top && size - top >= PTHREAD_STACK_MIN / 2) {
		t = carve(addr, size, tls);
		t->map_base = 0;
		t->map_size = 0;
	} else {
		/* a small region (PTHREAD_STACK_MIN, the least the setter
		 * accepts, beside a large TLS block) keeps all of itself: the
		 * block gets a mapping of its own, unmapped with the thread */
		blk_size = page_round(top);
		blk = mmap(0, blk_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (blk == MAP_FAILED) { *err = EAGAIN; return 0; }
		t = carve(blk, blk_size, tls);
		t->stack_lo = addr;
		t->stack_size = size;
		t->map_base = blk;
		t->map_size = blk_size;
	}
	t->guard_size = 0;
	t->own_stack = 0;
	t->user_stack = 1;
	t->vg_id = GREEN_VG_STACK_REGISTER(addr, (char *)addr + size);
	return clear(t, tls);
}

/* Every case but the cached one: a copied stack, the program's own, a
 * quarantined or an uncached mapping. */
static __attribute__((noinline)) void release(struct green_thread *t)
{
	void *base = t->map_base;
	size_t total = t->map_size;
	unsigned vg_id = t->vg_id;

	if (t->stack_mode == GREEN_STACK_COPIED) {
		__green_copied_free(t);
		return;
	}
	if (!t->own_stack) {
		if (t->user_stack) GREEN_VG_STACK_DEREGISTER(vg_id);
		if (base) munmap(base, total);   /* a block mapped apart (adopt) */
		return;
	}
	if ((__green_config.debug & GREEN_DEBUG_QUARANTINE)) {   /* never cached: quarantined */
		GREEN_VG_STACK_DEREGISTER(vg_id);
		if (__green_quarantine(t, base, total, "stack")) munmap(base, total);
		return;
	}
	GREEN_VG_STACK_DEREGISTER(vg_id);
	munmap(base, total);
}

hidden void __green_stack_free(struct green_thread *t)
{
	t->magic = 0;
#ifdef GREEN_SHARED
	__green_dtv_free(t);   /* a loaded object's TLS of its own (dtv.c) */
#endif
	/* own_stack: a mapping of ours (never a copied thread's) */
	if (t->own_stack && !(__green_config.debug & GREEN_DEBUG_QUARANTINE) && ncached < CACHE_MAX) {
		cache[ncached++] = (struct cached){ t->map_base, t->map_size, t->guard_size, t->vg_id };
		return;
	}
	release(t);
}

/* ---- overflow reports */

static struct sigaction prev_segv;

static void segv_on_altstack(int sig, siginfo_t *si, void *ctx)
{
	char *a = si->si_addr;
	struct green_thread *t;
	char buf[160];
	int named = 0;   /* the thread named as overflowing its stack */

	if ((__green_config.debug & GREEN_DEBUG_QUARANTINE) && __green_quarantined(a, buf, sizeof buf)) {
		char me[64];
		__green_describe(__green_cur, me, sizeof me);
		__green_say("green: %s touched %s (fault at %p; GREEN_DEBUG keeps released memory inaccessible)\n",
		            me, buf, (void *)a);
		named = 1;
	}
	/* a copied thread's stack: loaded if it was cold (copied.c), and the
	 * access runs again; or an overflow, or a touch of an exited one's */
	if (!named && __green_copied_fault(a, &named)) return;
	if (!named) for (t = __green_all; t; t = t->all_next) {
		char *g = t->map_base;
		if (t->stack_mode == GREEN_STACK_COPIED) continue;
		if (t->guard_size && a >= g && a < g + t->guard_size + GREEN_PAGE_SIZE) {
			__green_describe(t, buf, sizeof buf);
			__green_say("green: %s overflowed its stack of %zu bytes "
			            "(fault at %p, guard page at %p; GREEN_STACK_SIZE or "
			            "pthread_attr_setstacksize sets its size)\n",
			            buf, t->stack_size, (void *)a, (void *)g);
			named = 1;
			break;
		}
	}
	/* Hand the fault to the program's handler (virtual once threads
	 * exist, else whatever handled SIGSEGV before us); with the default
	 * action the faulting instruction re-executes and kills. */
	if (__green_sig_sync(SIGSEGV, si, ctx)) return;
	if ((prev_segv.sa_flags & SA_SIGINFO) && prev_segv.sa_sigaction) {
		prev_segv.sa_sigaction(sig, si, ctx);
		return;
	}
	if (prev_segv.sa_handler != SIG_DFL && prev_segv.sa_handler != SIG_IGN) {
		prev_segv.sa_handler(sig);
		return;
	}
	if (!named) {   /* any other fault: which thread died of it */
		__green_describe(__green_cur, buf, sizeof buf);
		__green_say("green: %s received SIGSEGV (fault at %p, si_code %d)\n",
		            buf, (void *)a, si->si_code);
	}
	__green_explore_report();   /* under GREEN_SCHED: the seed and decision hash */
	__libc_sigaction(SIGSEGV, &(struct sigaction){ .sa_handler = SIG_DFL }, 0);
}

/* The handler runs on the alternate signal stack, which every thread's
 * fault shares: no switch away from it, or the next fault's frame would
 * overwrite the frames of the thread switched away.  So a tick meanwhile
 * is only recorded; the program's handler, if any, runs preemptible
 * (deliver.c's run_handler). */
static void segv(int sig, siginfo_t *si, void *ctx)
{
	if (si->si_code <= 0 && __green_sig_virtual) {   /* sent, not a fault: any signal's path */
		__green_sig_sent(sig, si, ctx);
		return;
	}
	green_np_up();
	segv_on_altstack(sig, si, ctx);
	green_np_down();
}

static char altstack[16384] __attribute__((aligned(16)));
static char *alt_lo = altstack;
static size_t alt_len = sizeof altstack;

/* Is the caller running on the alternate signal stack (the SIGSEGV
 * handler's, or one a signal that interrupted it runs on)?  The tick asks,
 * and does not switch from there (tick.c): the handler's own section
 * (segv) cannot cover the instructions before it is raised. */
hidden int __green_on_altstack(void)
{
	char probe;
	return (size_t)(&probe - alt_lo) < alt_len;
}

hidden void __green_guard_init(void)
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack };
	struct sigaction sa = { .sa_sigaction = segv, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	stack_t old;

	/* Keep a program's own alternate stack if it has one. */
	if (sigaltstack(0, &old) == 0 && (old.ss_flags & SS_DISABLE)) {
		sigaltstack(&ss, 0);
	} else if (!(old.ss_flags & SS_DISABLE)) {
		alt_lo = old.ss_sp;
		alt_len = old.ss_size;
	}
	__libc_sigaction(SIGSEGV, &sa, &prev_segv);   /* the kernel's, whatever green_active() says */
	if (prev_segv.sa_sigaction == segv) prev_segv.sa_handler = SIG_DFL;
}
