/*
 * switch.c — hand the CPU from one green thread to another.
 *
 * The libc's per-thread state follows the thread in one of two ways
 * (tls.c).  Threads with TCBs of their own: the thread pointer moves to
 * the incoming thread's (a thread always resumes with its own, so GCC may
 * keep caching &errno across a switch: __errno_location is declared
 * const).  Threads sharing the initial TCB (a program without `__thread`
 * variables): the thread pointer never moves, and the per-thread parts —
 * errno, h_errno, the locale and, in musl, the owner id of FILE locks,
 * the flockfile list and the dlerror state — are bound shallowly
 * (Marovich 2.2): the outgoing thread's values are saved in its
 * descriptor and the incoming thread's installed (green_tls_save/
 * green_tls_load, the libc seam).
 */
#include <stddef.h>
#include "green.h"

#ifndef GREEN_OVERLAY
/* The reap frees with malloc: not while malloc's lock is held (by the
 * thread that lands, switched out at a point inside malloc, or by a
 * parked one), or the landing thread would wait for itself. */
extern int __malloc_lock[1];   /* mallocng (src/malloc/mallocng/glue.h) */
static int malloc_busy(void) { return *(volatile int *)__malloc_lock != 0; }
#else
static int malloc_busy(void) { return 0; }
#endif

/* green.h keeps what a switch reads in the descriptor's first line */
_Static_assert(offsetof(struct green_thread, sigpend) + sizeof(uint64_t) <= 64,
               "the fields a switch reads fit in the descriptor's first cache line");

/* Threads whose stacks could not be freed while they ran on them. */
static struct green_thread *reap_list;

hidden void __green_switch(struct green_thread *from, struct green_thread *to)
{
	if (__green_cpu_on) __green_cpu_charge();   /* cputime.c; off until asked */
	if (to->tp != from->tp) {
		__green_arch_set_tp(to->tp);
	} else {
		green_tls_save(from);
		green_tls_load(to);
	}
	from->np = __green_np;
	if (from->state == GS_EXITED && from->detached) {
		from->reap_next = reap_list;
		reap_list = from;
	}

	__green_np = to->np;
	to->state = GS_RUNNING;
	__green_cur = to;
	__green_nswitch++;

	if (to->stack_mode == GREEN_STACK_COPIED && __green_region_owner != to)
		__green_copied_switch(from, to);   /* the region changes hands */
	else
		__green_arch_switch(&from->sp, to->sp);

	/* running as `from` again, on its own stack */
	if (reap_list && !malloc_busy()) __green_reap();
	green_sig_check(from);
	__green_cancel_async(from);
}

/* Free the stacks of detached threads that have exited (never our own). */
hidden void __green_reap(void)
{
	struct green_thread *t;
	green_np_up();   /* library work, not a scheduling point (GREEN_SCHED) */
	while ((t = reap_list)) {
		reap_list = t->reap_next;
		__green_all_remove(t);
		__green_stack_free(t);
	}
	green_np_down();
}

hidden void __green_reap_reset(void)
{
	reap_list = 0;
}
