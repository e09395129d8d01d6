/*
 * switch.h — the hand-off from one green thread to another, inline:
 * sched.c's hottest paths (the busy yield, yield_busy; a wait's block)
 * have it in their own bodies; switch.c has the out-of-line copy for
 * everyone else, and the reaping.
 *
 * The libc's per-thread state follows the thread in one of two ways
 * (tls.c).  Threads with TCBs of their own: the thread pointer moves to
 * the incoming thread's (a thread always resumes with its own, so GCC may
 * keep caching &errno across a switch: __errno_location is declared
 * const).  Threads sharing the initial TCB (a program without `__thread`
 * variables): the thread pointer never moves, and the per-thread parts
 * the libc reads in line — errno, the locale and, in musl, the owner id
 * of FILE locks — are bound shallowly (Marovich 2.2): the outgoing
 * thread's values are saved in its descriptor and the incoming thread's
 * installed (green_tls_save/green_tls_load, the libc seam).  h_errno,
 * the flockfile list and the dlerror message live in the descriptor
 * (src/members), and no switch moves them.
 */
#ifndef GREEN_SWITCH_H
#define GREEN_SWITCH_H

#include "base/gthread.h"
#include "base/section.h"
#include "sched/tick.h"
#include "signal/gsignal.h"
#include "stack/gstack.h"

/* Threads whose stacks could not be freed while they ran on them. */
extern hidden struct green_thread *__green_reap_list;

#ifndef GREEN_OVERLAY
/* The reap frees with malloc: not while malloc's lock is held (by the
 * thread that leaves its section, switched out at a point inside malloc,
 * or by a parked one), or that thread would wait for itself. */
extern int __malloc_lock[1];   /* mallocng (src/malloc/mallocng/glue.h) */
static inline int green_malloc_busy(void) { return *(volatile int *)__malloc_lock != 0; }
#else
static inline int green_malloc_busy(void) { return 0; }
#endif

/* a thread that lands with signals or a cancel pending: what of them it
 * can act on now (switch.c) */
hidden void __green_switch_landed(struct green_thread *self);

/* __green_switch_kind (words.h) with GREEN_SWITCH_CPU or _CHECK: the
 * charge or the checks first, out of line */
hidden void __green_switch_charged(struct green_thread *from, struct green_thread *to);

/* Inside a no-preempt section: run `to` (RUNNABLE, off every queue)
 * until some thread switches back to `from`, whose state the caller has
 * set.  The depth is each thread's own: `to` resumes with the one it
 * left with. */
static inline void green_switch(struct green_thread *from, struct green_thread *to)
{
	if (__builtin_expect(__green_switch_kind == 0, 1)) {
		green_tls_save(from);
		green_tls_load(to);
	} else if (__green_switch_kind == GREEN_SWITCH_TP) {
		__green_arch_set_tp(to->tp);
	} else {
		__green_switch_charged(from, to);
	}
	from->np = __green_np;
	__green_np = to->np;
	to->state = GS_RUNNING;
	__green_cur = to;
	__green_nswitch++;

#if GREEN_SLOT_SHARING
	if (from->shared)
		__green_copied_leave(from, to);   /* its slot unmapped behind it */
	else
#endif
	{
		if (__builtin_expect(to->stack_mode == GREEN_STACK_COPIED, 0) && __builtin_expect(!to->hot, 0))
			__green_copied_load(from, to);   /* to's slot mapped, its frames copied in */
		__green_arch_switch(&from->sp, to->sp);
	}

	/* running as `from` again, on its own stack (exited threads' stacks
	 * are freed at a section's end: GREEN_PEND_REAP): signals pending
	 * for it or for the process, and a pending cancel, looked for with
	 * one test; the blocked signals and a deferred cancel are told apart
	 * out of line, where pending work is rare */
	if (__builtin_expect((from->sigpend | __green_proc_pend | from->cancel_pending) != 0, 0))
		__green_switch_landed(from);
}

#endif
