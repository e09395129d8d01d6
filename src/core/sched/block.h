/*
 * block.h — the running thread blocks: the next thread picked and the
 * switch, in line (sched.c's waits; the I/O layer's usual wait, io.h, so
 * that a wait on a descriptor is one frame, not two).
 *
 * The caller is inside a no-preempt section and has made the thread
 * findable by whoever will wake it (a wait queue, the timer heap, a
 * descriptor's list); green_block marks it BLOCKED and runs the next
 * runnable thread, idling in the kernel (sched.c) while there is none.
 * It returns, as the thread, once some thread has woken it and a switch
 * has come back to it, with the reason the waker left in t->wake.
 */
#ifndef GREEN_BLOCK_H
#define GREEN_BLOCK_H

#include "base/gthread.h"
#include "sched/gsched.h"
#include "sched/runq.h"
#include "sched/switch.h"
#include "sched/tick.h"

/* sched.c, out of line: the idle loop, and a landing without a switch */
hidden struct green_thread *__green_idle_until_runnable(void);
hidden void __green_woke_idling(struct green_thread *self);

/* The gate's bytes that send a pick past level 0's head: a deadline
 * pending, exploration, a thread above level 0 (the kernel policy's
 * byte is sched_yield's alone) */
#define GREEN_GATE_PICK (((union green_yield_gate){ .flag = { [GREEN_GATE_EXPLORE] = -1, \
	[GREEN_GATE_TIMERS] = -1, [GREEN_GATE_LEVELS] = -1 } }).any)

/* The next thread to run after self, which stops running and is on no
 * run queue; idles while there is none.  May return self, woken while
 * it idled. */
static inline __attribute__((always_inline)) struct green_thread *green_pick_next(struct green_thread *self)
{
	struct green_thread *next;

	/* the usual case in one test of the gate's word: level 0's head,
	 * which is not self (the caller's test of that is left out here) */
	if (__builtin_expect(!(__green_yield_gate.any & GREEN_GATE_PICK), 1) && __green_runq.lv[0].head) {
		next = runq_pop_at(0);
		if (next == self) __builtin_unreachable();
	} else {
		/* Deadlines are checked at every hand-off while any are
		 * pending (one vDSO clock read), so sleepers wake on time
		 * even when the other threads never leave the run queue
		 * empty. */
		if (__green_timers_pending())
			__green_timers_expire(__green_now(), 0);
		if (!(next = runq_pick())) next = __green_idle_until_runnable();
	}
	/* the thread that runs next may compute without a system call
	 * while others wait for deadlines or descriptors: ticks watch them */
	if (!__green_ticking) __green_tick_watch();
	return next;
}

/* self: __green_cur, as the caller has it (one register for it across
 * the switch, not a load after each section's barrier) */
static inline __attribute__((always_inline)) int green_block(struct green_thread *self)
{
	struct green_thread *next;

	self->state = GS_BLOCKED;
	next = green_pick_next(self);
	if (__builtin_expect(next != self, 1))
		green_switch(self, next);
	else
		__green_woke_idling(self);   /* woken while idling on its own stack: no switch */
	return self->wake;
}

/* __green_park in line (gsched.h): the usual wait of the I/O layer, on
 * q (0: none) at its tail, no deadline, a pending cancel looked at;
 * self as green_block's */
static inline __attribute__((always_inline)) int green_park(struct green_thread *self, struct gq *q,
                                                          enum gwait kind, const void *obj)
{
	self->wake = 0;
	self->wait = kind;
	self->wait_obj = obj;
	if (q) gq_append(q, self);
	return green_block(self);
}

#endif
