/*
 * invariants.c — what must hold at every switch, checked under
 * GREEN_DEBUG (base/check.h says how a broken one is reported).
 *
 * At a switch from `from` to `to`, inside the section that switches:
 *
 *   from   is the running thread, alive (its magic), and has just left
 *          RUNNING: RUNNABLE and on its level's run queue (a yield: at
 *          the tail, unless threads a deadline woke came after it), BLOCKED and on the queue it waits on or on none (a
 *          sleep, a kernel wait with no queue) with its wait's result
 *          0 (a wake sets it as it makes the thread runnable), or
 *          EXITED and on no queue;
 *   to     is another live thread, RUNNABLE and off every queue (the
 *          pick took it off the run queue);
 *   depth  the no-preempt depth is at least 1: a switch happens inside
 *          a section, never outside one;
 *   queue  each level of the run queue: its bit set exactly while it
 *          holds a thread; walked from its head, every thread is live,
 *          RUNNABLE, at that level, linked back to the one before it,
 *          and the last is the tail; no walk is longer than the number
 *          of live threads (a cycle); the threads on every level are as
 *          many as the queue's count (runq.h);
 *   heap   the timer heap is ordered, each entry knows its place and is
 *          BLOCKED (timer.c, __green_timers_check).
 *
 * Every check is O(1) but the run queue's walk and the heap's, which are
 * as long as the threads on them: a debugging aid, not a mode to time.
 */
#include <stdio.h>
#include "base/gthread.h"
#include "base/section.h"
#include "base/check.h"
#include "base/report.h"
#include "sched/gsched.h"
#include "sched/runq.h"

static const char *state_of(const struct green_thread *t)
{
	return __green_state_name(t->state);
}

static void check_live(const struct green_thread *t, const char *role)
{
	green_check(t, t && t->magic == GREEN_MAGIC, role, "a dead or overwritten descriptor", "a live thread");
}

/* t is the head of q or linked into it, walking no more than the live
 * threads */
static int on_queue(const struct gq *q, const struct green_thread *t)
{
	unsigned n = 0;

	for (const struct green_thread *p = q->head; p; p = p->q_next)
		if (p == t) return 1;
		else if (++n > (unsigned)__green_live + 1) __green_broken(t, "the queue it waits on", "a cycle", "a list");
	return 0;
}

static void check_from(struct green_thread *from)
{
	static char found[64];

	check_live(from, "the thread switched from");
	green_check(from, from == __green_cur, "the thread switched from", "another than the running thread", "the running thread");
	switch (from->state) {
	case GS_RUNNABLE:
		green_check(from, from->q == &__green_runq.lv[green_level(from)],
		            "its queue, yielding", "another queue", "the run queue at its level");
		green_check(from, on_queue(from->q, from), "its place, yielding", "not on the queue it points to", "on its level's queue");
		break;
	case GS_BLOCKED:
		green_check(from, !from->q || on_queue(from->q, from), "its wait queue", "not on it", "on the queue it waits on");
		/* what the peer's wake leaves as it is (runq.h,
		 * green_sleeper_unwait_parked) */
		green_check(from, !from->wake, "its wait's result, blocking", "already set", "0 until a wake");
		break;
	case GS_EXITED:
		green_check(from, !from->q, "its queue, exiting", "on a queue", "on none");
		break;
	default:
		snprintf(found, sizeof found, "%s", state_of(from));
		__green_broken(from, "its state at a switch away", found, "RUNNABLE, BLOCKED or EXITED");
	}
}

static void check_to(struct green_thread *from, struct green_thread *to)
{
	check_live(to, "the thread switched to");
	green_check(to, to != from, "the thread switched to", "the thread switching", "another thread");
	green_check(to, to->state == GS_RUNNABLE, "its state when switched to", state_of(to), "RUNNABLE");
	green_check(to, !to->q && !to->q_next && !to->q_prev, "its queue when switched to",
	            "still linked into a queue", "off every queue");
}

static void check_runq(struct green_thread *to)
{
	unsigned limit = (unsigned)__green_live + 1;
	unsigned long all = 0;

	for (unsigned l = 0; l < RQ_LEVELS; l++) {
		struct gq *q = &__green_runq.lv[l];
		int bit = __green_runq.bits[l / RQ_BITS] >> l % RQ_BITS & 1;
		const struct green_thread *prev = 0;
		unsigned n = 0;

		green_check(q->head, bit == (q->head != 0), "the run queue's bitmap",
		            bit ? "a level's bit set, its queue empty" : "a level's bit clear, its queue not",
		            "a bit set exactly while its level holds a thread");
		green_check(q->head, !q->head == !q->tail, "the run queue's ends",
		            "a head without a tail or a tail without a head", "both or neither");
		for (struct green_thread *t = q->head; t; prev = t, t = t->q_next) {
			check_live(t, "a thread on the run queue");
			green_check(t, t != to, "its place on the run queue", "the thread switched to", "off the run queue");
			green_check(t, t->state == GS_RUNNABLE, "its state on the run queue", state_of(t), "RUNNABLE");
			green_check(t, t->q == q, "its queue pointer (the run queue)", "another queue", "the level it is on");
			green_check(t, t->q_prev == prev, "its q_prev (the run queue)", "not the thread before it", "the thread before it");
			green_check(t, t->q_next != t, "its q_next (the run queue)", "itself", "another thread or none");
			green_check(t, ++n <= limit, "the run queue", "a cycle", "a list no longer than the live threads");
		}
		green_check(q->tail, q->tail == prev, "the run queue's tail", "not its last thread", "the last thread");
		all += n;
	}
	green_check(to, __green_runq.n == all, "the run queue's count (the fair slice's divisor)",
	            "not the threads on it", "the threads on it");
}

hidden void __green_check_switch(struct green_thread *from, struct green_thread *to)
{
	green_check(from, __green_np >= 1, "the no-preempt depth at a switch", "0", "at least 1");
	check_to(from, to);
	check_runq(to);   /* before from's place: a broken queue names its own thread */
	check_from(from);
	__green_timers_check();
}
