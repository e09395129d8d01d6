/*
 * sched.c — the green scheduler.
 *
 * Design
 * ------
 * Every POSIX thread of the program is a coroutine on the one kernel
 * thread the process started with.  The scheduler is not a thread: it is
 * the handful of functions in this file, run on the stack of whichever
 * green thread is giving up the CPU.  A hand-off is therefore a single
 * switch, thread to thread (__green_switch), not thread -> scheduler ->
 * thread; the one exception is a copied-stack thread leaving a slot it
 * shares with others (32-bit CPUs only), which goes through a scheduler
 * context of its own because its slot is unmapped under it (copied.c).
 *
 * The running thread gives up the CPU in exactly three ways:
 *
 *   yield    it stays runnable: it goes to the tail of the run queue and
 *            the head runs.  With an empty run queue a yield is a no-op.
 *            A busy yield makes no system call.
 *   block    it has put itself on the queue of some wait object (mutex,
 *            condition, join, address) and/or into the timer heap, and
 *            marked itself BLOCKED; __green_block picks the next thread.
 *   exit     like block, but it never comes back (__green_exit_switch).
 *
 * Whoever wakes a thread (an unlock, a signal, an expired deadline) takes
 * it off its wait queue and timer heap and appends it to the run queue;
 * the waker keeps running.  The woken thread learns why it woke from
 * t->wake (0, ETIMEDOUT, EINTR, ECANCELED).
 *
 * When the run queue is empty the blocking thread idles on its own stack:
 * expire deadlines, and if still nothing is runnable ask the kernel to
 * wait (poll.c) until the nearest deadline or an I/O event.  If nothing
 * at all can wake any thread — no deadline, no descriptor, no signal
 * handler that could post to a semaphore — the program has deadlocked:
 * report each thread and what it waits on, then abort, rather than hang.
 *
 * Preemption (a SIGALRM tick) can arrive at any instruction.  Library
 * code that manipulates the queues below runs inside GREEN_ENTER/LEAVE,
 * a plain counter: a tick that finds it non-zero only records that a
 * preemption is pending, and the outermost GREEN_LEAVE takes it.
 *
 * Fields and who protects them: all scheduler state is touched only by
 * the running thread, inside a no-preempt section.
 */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "sched/tick.h"
#include "idlewait.h"
#include "signal/gsignal.h"
#include "base/gconfig.h"
#include "sched/runq.h"
#include "sched/switch.h"
#include "sched/block.h"
#include "diag/diag.h"
#include "base/check.h"

GREEN_ARCH_WAITS_ON_STACK

static void *main_tsd[PTHREAD_KEYS_MAX];

/* The initial thread exists before the library starts: its descriptor is
 * static so pthread_self() and friends work from the first instruction. */
hidden struct green_thread __green_main = {
	.magic = GREEN_MAGIC,
	.id = 1,
	.state = GS_RUNNING,
	.io_slow = GREEN_SLOW_UNSTARTED,
	.tsd = main_tsd,
};
hidden struct green_thread *__green_cur = &__green_main;
hidden int __green_started;
hidden int __green_live = 1;
hidden struct green_thread *__green_all = &__green_main;
hidden int __green_np;
hidden volatile union green_pending __green_pending;
hidden int __green_idling;   /* idle()'s alone to write (gsched.h) */

hidden long long *volatile __green_idle_kts;   /* the idle wait's (poll.c) */
hidden unsigned long __green_idles;             /* idle waits so far: the tick's look (tick.c) */

/*
 * Wait in the kernel until the deadline, an I/O event or a signal.  We are
 * inside the library, so a signal caught meanwhile is only recorded; it is
 * dispatched here (which may make a thread runnable).  No signal may be
 * caught unseen between the last look at the recorded set and the wait.
 * Usually the wait's own timeout sees to it, with no system call: from
 * before that look, a handler that records a signal cuts the timeout to
 * 0 (green_idle_cut), so that a wait that has not begun returns at once,
 * and one that has is interrupted.  Where the timeout cannot be cut
 * (__green_poll_maskless), and before threads exist (a handler of the
 * program's then runs in place of the catcher), all signals are blocked
 * from the look until the wait, which unblocks them atomically.
 */
static void idle(uint64_t deadline)
{
	uint64_t all = -1, old = 0, restore, t0 = 0;
	int r = 0;

	if (__green_xmode && __green_vclock_jump(deadline)) return;   /* virtual time */
	if (__green_xmode) t0 = __green_real_now();
	__green_idles++;
	if (green_active() && __green_poll_maskless()) {
		__green_idling = 1;
		r = __green_poll_wait(deadline, 0);   /* the look is there, after the cut can be made */
		__green_idling = 0;
	} else {
		__syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, &old, _NSIG / 8);
		if (!green_pending_is(GREEN_PEND_SIG)) {
			__green_idling = 1;
			r = __green_poll_wait(deadline, &old);
			__green_idling = 0;
		}
		/* what the catcher caught meanwhile stays blocked until dispatched */
		restore = old | __green_sig_held;
		__syscall(SYS_rt_sigprocmask, SIG_SETMASK, &restore, 0, _NSIG / 8);
	}
	if (r == -EINTR && !green_active() && __green_cur->state == GS_BLOCKED) {
		/* no threads yet, so signals are the kernel's: the program's
		 * handler ran in the wait, which it interrupts (a sem_wait on a
		 * named semaphore in a single-threaded program) */
		__green_cur->intr_at = __green_now();
		__green_cur->intr_restart = 0;
		__green_wake(__green_cur, EINTR);
	}
	if (__green_xmode) __green_vclock_idled(deadline, t0);
	__green_sig_dispatch_arrived();
}

/* Nobody was runnable at the look in pick_next (block.h), which had
 * expired what was due: idle until a thread is.  Out of line: the common
 * hand-off finds one at once and saves no registers for this loop. */
hidden struct green_thread *__green_idle_until_runnable(void)
{
	struct green_thread *t;
	for (;;) {
		if (!__green_timers_pending() && !__green_poll_waiters())
			__green_deadlock();  /* returns only if a signal may still wake us */
		idle(__green_timer_next());
		if (__green_timers_pending())
			__green_timers_expire(__green_now(), 0);
		if ((t = runq_pick()))
			return t;
	}
}


/* Make t runnable: at the front of its level when front, else at its
 * tail (runq_ready, runq.h). */
hidden void __green_ready(struct green_thread *t, int front)
{
	runq_ready(t, front);
}

/* Take t off whatever it waits on and make it runnable (green_wake,
 * runq.h, which the mutex's and condition's hand-offs have in line). */
hidden void __green_wake(struct green_thread *t, int why)
{
	green_wake(t, why, 0);
}

/* Wake t with 0 where a thread that slept queues: ahead of the ones a
 * tick preempted (runq.h; green_wake_sleeper is the copy in line). */
hidden void __green_wake_sleeper(struct green_thread *t)
{
	green_wake_sleeper(t);
}

/* Wake t ahead of the threads already runnable at its level: a signal
 * for it is urgent (deliver.c), a deadline that passed at a tick too
 * (tick.c). */
hidden void __green_wake_first(struct green_thread *t, int why)
{
	green_wake(t, why, 1);
}

/* What a switch does on landing (switch.c), for a thread woken while it
 * idled on its own stack (block.h): done here, while the wait's mask
 * (sigsuspend's) is still in force. */
hidden void __green_woke_idling(struct green_thread *self)
{
	self->state = GS_RUNNING;
	green_sig_check(self);
	__green_cancel_async(self);
}

/* The caller is queued and marked: run another thread until one wakes
 * the caller (block.h's green_block, in line in the common wait, wait_on,
 * and in the I/O layer's usual wait as well). */
hidden int __green_block(void)
{
	return green_block(__green_cur);
}

/*
 * The common wait: queue the caller on q (may be null), arm an optional
 * deadline, block.  Called inside GREEN_ENTER.  Returns 0 when woken by
 * the object, ETIMEDOUT, EINTR or ECANCELED.
 *
 * A wait that is a cancellation point (self->canceling) ends at once with
 * ECANCELED when a cancel is already pending: pthread_cancel wakes only a
 * thread that is blocked, so a request that came between the caller's
 * own __green_cancel_point and this section (a tick let the canceller
 * run) would otherwise wait as long as the wait lasts, forever for a join.
 */
static inline __attribute__((always_inline)) int wait_on(struct gq *q, int first, enum gwait kind,
                                                          const void *obj, uint64_t deadline)
{
	struct green_thread *self = __green_cur;

	if (green_cancel_due(self))
		return ECANCELED;
	self->wake = 0;
	self->wait = kind;
	self->wait_obj = obj;
	if (q && first) __gq_push_first(q, self);
	else if (q) __gq_push(q, self);
	if (deadline != GREEN_NO_DEADLINE) __green_timer_add(self, deadline);
	return green_block(self);
}

hidden int __green_wait(struct gq *q, enum gwait kind, const void *obj, uint64_t deadline)
{
	return wait_on(q, 0, kind, obj, deadline);
}

/* The I/O layer's usual wait (src/sysio/io.h): on q (the kernel-wait
 * queue, for select and poll) or on none (epoll: the descriptor's list
 * of waiters is its own), at q's tail (the multiplexer's round wakes
 * them all, whatever their order), no deadline, a pending cancel
 * already looked at.  Inside GREEN_ENTER. */
hidden int __green_park(struct gq *q, enum gwait kind, const void *obj)
{
	return green_park(__green_cur, q, kind, obj);   /* block.h */
}

/* The same, queued ahead of the waiters of the caller's own level. */
hidden int __green_wait_first(struct gq *q, enum gwait kind, const void *obj, uint64_t deadline)
{
	return wait_on(q, 1, kind, obj, deadline);
}

/* func(ctx) with no other thread run meanwhile (synccall.c) */
hidden void __green_unpreempted(void (*func)(void *), void *ctx)
{
	GREEN_ENTER();
	func(ctx);
	GREEN_LEAVE();
}

/* The end of a yield (__green_yield; the busy one has its own,
 * yield_busy_done), inside its section: the pending yields and slices it
 * satisfies are cleared, and signals caught during it are dispatched now
 * (a thread that spins on sched_yield alone must still run its
 * handlers).  Not GREEN_LEAVE: under GREEN_SCHED that is a scheduling
 * point, which yields, and a yield is one already (explore.c). */
static inline void yield_done(void)
{
	green_pending_clear_yield();   /* GREEN_PEND_YIELD and GREEN_PEND_SLICE */
	green_section_end(__green_preempt_now);
}

/* A busy yield's end (yield_busy): the depth down first, and the flags
 * the yield satisfies cleared only where the depth was not the
 * outermost (rare) or where work is pending, so that the usual end is
 * the section's end alone.  A handler that interrupts between the step
 * down and the clear finds the depth 0 and acts itself (tick.c), but it
 * may have made runnable a thread above this one without switching
 * (green_preempt_ok refused): the clear would drop that pending yield,
 * so the slow path asks again when a thread above is runnable. */
static __attribute__((noinline)) void yield_busy_pending(void)
{
	green_pending_clear_yield();
	if (__green_runq_higher(__green_cur)) green_pending_set(GREEN_PEND_YIELD);
	if (__green_pending.any) __green_preempt_now();
}

static inline void yield_busy_done(void)
{
	green_barrier();
	if (__builtin_expect(--__green_np != 0, 0))
		green_pending_clear_yield();
	else if (__green_pending.any)
		yield_busy_pending();
}

/* A yield's start: into the section, deadlines that passed woken; the
 * run queue's top level. */
static inline int yield_begin(void)
{
	GREEN_ENTER();
	if (__green_timers_pending())
		__green_timers_expire(__green_now(), 0);
	return runq_top();
}

hidden void __green_yield(void)
{
	struct green_thread *self = __green_cur, *next;
	int top = yield_begin();

	if (top >= green_level(self)) {   /* someone of its level or above */
		self->state = GS_RUNNABLE;
		if (top == green_level(self) && !__green_xmode) {
			next = runq_rotate(self, top);
		} else {
			runq_push(self);   /* behind them: the top stays the top */
			next = __green_xmode ? __green_explore_pick() : runq_pop_at(top);
		}
		if (next != self) green_switch(self, next);
		else self->state = GS_RUNNING;   /* GREEN_SCHED's choice */
	}
	yield_done();
}

/* The tick takes the CPU from the running thread (tick.c): `how` says
 * where it queues.  GREEN_PREEMPT_TAIL: its slice is used, to the tail;
 * GREEN_PREEMPT_KEEP: a thread that slept waits, and the running one
 * goes back first among the computing ones (runq.h's sleeper place,
 * then marked computing), to run again after the sleepers;
 * GREEN_PREEMPT_HIGHER: a thread of a higher priority runs, as
 * __green_yield.  Either way the thread is computing now: threads that
 * slept queue ahead of it. */
hidden void __green_preempt_yield(int how)
{
	struct green_thread *self = __green_cur, *next;

	if (how == GREEN_PREEMPT_HIGHER || __green_xmode) {
		__green_yield();
		return;
	}
	if (yield_begin() >= green_level(self)) {   /* someone of its level or above */
		self->state = GS_RUNNABLE;
		if (how == GREEN_PREEMPT_KEEP) runq_push_sleeper(self);
		else runq_push(self);
		self->computing = 1;   /* its passes are 0: counted from its pop (runq.h) */
		next = runq_pop_at(runq_top());
		if (next != self) green_switch(self, next);
		else self->state = GS_RUNNING;
	}
	yield_done();
}

hidden _Noreturn void __green_exit_switch(void)
{
	struct green_thread *self = __green_cur, *next;

	self->state = GS_EXITED;
	if (self->detached) __green_reap_later(self);   /* once off its stack */
	__green_sig_thread_exit(self);
	next = green_pick_next(self);
	__green_switch(self, next);
	__green_broken(self, "its state after its exit", "switched back to", "never to run again");
}

/*
 * Is the kernel thread's own policy real-time (SCHED_FIFO or SCHED_RR)?
 * Then sched_yield must enter the kernel too: a real-time process that
 * never does lets no other process of its priority run on its CPU (the
 * kernel does not preempt it), whereas under SCHED_OTHER the kernel
 * shares the CPU anyway and the call would only cost.  -1 until the
 * first yield asks the kernel; sched_setscheduler keeps it (thread_np.c),
 * and a fork child asks again (SCHED_RESET_ON_FORK).
 */
hidden union green_yield_gate __green_yield_gate = { .flag[GREEN_GATE_KERNEL_RT] = -1 };

static __attribute__((noinline)) void kernel_yield(void)
{
	if (__green_kernel_rt < 0) {
		int p = __syscall(SYS_sched_getscheduler, 0) & ~0x40000000;   /* less SCHED_RESET_ON_FORK */
		__green_kernel_rt = p == SCHED_FIFO || p == SCHED_RR;
	}
	if (__green_kernel_rt) __syscall(SYS_sched_yield);
}

static __attribute__((noinline)) int yield(void)
{
	if (!__green_xmode) {
		__green_yield();
	} else if (green_active()) {
		__green_explore_yielded();
		__green_explore_point(0);
	}
	if (__green_kernel_rt) kernel_yield();
	return 0;
}

/* The busy case: others wait at the caller's own level and none above
 * it (runq_top_is: the caller's level is the top, looked at inside the
 * section, as a tick before it may have changed the queue), so the
 * caller rotates to its level's tail and its head runs, as in
 * __green_yield, with the switch in this body (switch.h).  A function
 * of its own, reached by a jump, so that sched_yield's look for the
 * case of nothing to run carries none of its set-up. */
static __attribute__((noinline)) int yield_busy(void)
{
	struct green_thread *self = __green_cur;
	int l = 0;

	GREEN_ENTER();
	/* Every thread at level 0 (SCHED_OTHER, the usual case: the gate's
	 * GREEN_GATE_LEVELS clear) and another runnable: level 0's bitmap
	 * word is its one bit, and its queue is at an address known at link
	 * time; else the caller's level must be the top. */
	if (__builtin_expect(!__green_yield_gate.flag[GREEN_GATE_LEVELS], 1)
	    ? __green_runq.bits[0] == 1 : runq_top_is(l = green_level(self))) {
		self->state = GS_RUNNABLE;
		green_switch(self, __builtin_expect(!l, 1) ? runq_rotate(self, 0) : runq_rotate(self, l));
		yield_busy_done();
		return 0;
	}
	GREEN_LEAVE();
	return yield();
}

/* Nothing else to run (no thread runnable, no deadline that may have
 * passed: only threads make them so), no schedule to explore, and a
 * kernel that preempts this process anyway: nothing to do, and no
 * system call. */
int sched_yield(void)
{
	if (__green_yield_gate.any) return yield();   /* deadlines expire there */
	if (!runq_maybe()) return 0;
	return yield_busy();
}

void thrd_yield(void)
{
	sched_yield();
}
