/*
 * preempt.c — the deferred half of a tick.
 *
 * The tick handler (tick.c) and the signal catcher (deliver.c) that find
 * the running thread inside a no-preempt section do nothing there but
 * set flags of __green_pending (section.h).  The end of the outermost
 * section comes here, through green_section_end: dispatch the signals
 * that arrived, wake the waiters whose deadline passed or whose
 * descriptor is ready, and give up the CPU if a yield was asked for or
 * the quantum is used.  Every section ends through that one helper:
 * GREEN_LEAVE with __green_leave, which adds GREEN_SCHED's scheduling
 * point; __green_yield's epilogue (sched.c) and a new thread's first
 * code (create.c) with __green_preempt_now, as a yield is one already.
 */
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "sched/tick.h"
#include "signal/gsignal.h"
#include "base/gconfig.h"
#include "record/record.h"

hidden void __green_preempt_now(void)
{
	int yield, slice, woke = 0, how = 0;

	if (green_pending_is(GREEN_PEND_REAP)) __green_reap_pending();   /* switch.c */
	__green_sig_dispatch_arrived();   /* if GREEN_PEND_SIG was set */
	if (green_pending_take(GREEN_PEND_POLL)) {
		GREEN_ENTER();
		woke = __green_tick_check();
		green_np_down();
	}
	yield = green_pending_take(GREEN_PEND_YIELD);
	slice = green_pending_take(GREEN_PEND_SLICE);
	if (yield) __green_yield();
	else if ((slice || woke) && (how = __green_tick_deferred(slice))) __green_preempt_yield(how);
	green_sig_check(__green_cur);
}

/* GREEN_LEAVE's slow path: a pending preemption or signal, and under
 * GREEN_SCHED a scheduling point (explore.c). */
hidden void __green_leave(void)
{
	if (green_vfork_child()) return;   /* the parent's threads are not ours to run */
	if (__green_rmode) __green_rec_point();   /* before the work: a signal it takes is part of it */
	__green_preempt_now();
	if (__green_xmode) __green_explore_point(0);
}
