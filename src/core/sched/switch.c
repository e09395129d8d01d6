/*
 * switch.c — the out-of-line hand-off (switch.h has it inline, and says
 * how the libc's per-thread state follows the thread), and the reaping
 * of exited detached threads.
 */
#include <stddef.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "thread/lifecycle.h"
#include "stack/gstack.h"
#include "sched/switch.h"
#include "sched/cputime.h"

GREEN_ARCH_WAITS_ON_STACK

/* gthread.h keeps what a switch reads in the descriptor's first line */
_Static_assert(offsetof(struct green_thread, sigpend) + sizeof(uint64_t) <= 64,
               "the fields a switch reads fit in the descriptor's first cache line");

hidden struct green_thread *__green_reap_list;
hidden unsigned char __green_switch_kind;   /* GREEN_SWITCH_TP set by tls.c, _CPU by cputime.c, _DTV by dtv.c */

/* green_switch's first step when the switch's kind asks for more than
 * the thread pointer or the bound fields: GREEN_DEBUG's invariant checks
 * (invariants.c), the CPU-time charge, then either as usual, and (green's
 * libc.so) the shared TCB's DTV bound too once a loaded object's TLS
 * makes it per thread (stack/dtv.c) */
hidden void __green_switch_charged(struct green_thread *from, struct green_thread *to)
{
	if (__green_switch_kind & GREEN_SWITCH_CHECK) __green_check_switch(from, to);
	if (__green_switch_kind & GREEN_SWITCH_CPU) __green_cpu_charge();
	if (__green_switch_kind & GREEN_SWITCH_TP) {
		__green_arch_set_tp(to->tp);
	} else {
		green_tls_save(from);
		green_tls_load(to);
#ifdef GREEN_SHARED
		if (__green_switch_kind & GREEN_SWITCH_DTV) green_tcb_dtv_move(from, to);
#endif
	}
}

hidden void __green_switch(struct green_thread *from, struct green_thread *to)
{
	green_switch(from, to);
}

/* green_switch's landing found something pending (switch.h): signals the
 * thread does not block run their handlers, and a cancel pending for an
 * asynchronously cancelable thread acts */
hidden void __green_switch_landed(struct green_thread *self)
{
	green_sig_check(self);
	if (self->cancel_pending) __green_cancel_async(self);
}

/* An exiting detached thread: its stack is freed after the switch away
 * from it (__green_exit_switch), at the end of the outermost section
 * that some other thread leaves next (GREEN_PEND_REAP, preempt.c), so
 * that no switch has to look for stacks to free as it lands. */
hidden void __green_reap_later(struct green_thread *t)
{
	t->reap_next = __green_reap_list;
	__green_reap_list = t;
	green_pending_set(GREEN_PEND_REAP);
}

/* GREEN_PEND_REAP's work.  Not while malloc's lock is held (by a thread
 * switched out inside malloc): the flag stays, and the end of a later
 * section tries again. */
hidden void __green_reap_pending(void)
{
	if (green_malloc_busy()) return;
	green_pending_clear(GREEN_PEND_REAP);
	__green_reap();
}

/* Free the stacks of detached threads that have exited (never our own). */
hidden void __green_reap(void)
{
	struct green_thread *t;
	green_np_up();   /* library work, not a scheduling point (GREEN_SCHED) */
	while ((t = __green_reap_list)) {
		__green_reap_list = t->reap_next;
		__green_all_remove(t);
		__green_stack_free(t);
	}
	green_np_down();
}

hidden void __green_reap_reset(void)
{
	__green_reap_list = 0;
}
