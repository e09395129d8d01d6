/*
 * runq.c — the run queue's storage, and what of it is not inline
 * (runq.h): reset after fork, requeue on a level change, the
 * preemption test, and the place of a thread another thread woke.
 */
#include <string.h>
#include "base/gthread.h"
#include "sched/gsched.h"
#include "sched/runq.h"

hidden struct green_runq __green_runq;

hidden void __green_runq_reset(void)
{
	memset(&__green_runq, 0, sizeof __green_runq);
}

/* Inside GREEN_ENTER: t's level changed; put it where the new level
 * says — on the run queue if runnable, in its wait queue if blocked
 * (wait queues are ordered by level too, queue.c). */
hidden void __green_runq_requeue(struct green_thread *t, int front)
{
	struct gq *q = t->q;
	if (!q) return;
	if (t->state == GS_RUNNABLE) {
		runq_remove(t);
		if (front) runq_push_front(t);
		else runq_push(t);
	} else {
		__gq_remove(t);
		__gq_push(q, t);
	}
}

/* Is a thread above cur runnable? */
hidden int __green_runq_higher(struct green_thread *cur)
{
	return runq_top() > green_level(cur);
}

/*
 * Should the tick take the CPU from cur?  Only for a runnable thread of
 * a higher level, or of the same level unless cur is SCHED_FIFO (which
 * runs until it blocks or yields).  Threads of lower levels never get
 * it from a tick.
 */
hidden int __green_runq_should_preempt(struct green_thread *cur)
{
	int top = runq_top(), l = green_level(cur);
	return top > l || (top == l && cur->policy != SCHED_FIFO);
}

/*
 * A thread another thread woke: ahead of the threads already runnable,
 * as Linux's wake-up preemption lets a thread that slept run before the
 * ones that compute.  Which wakes are another thread's doing: a wake
 * with 0 from a wait that only another thread ends (a mutex's unlock, a
 * condition's signal, a post, a barrier, a join, a futex wake, the
 * libc's internal locks).  Which threads: SCHED_OTHER at level 0 alone.
 * POSIX has a SCHED_FIFO or SCHED_RR thread that becomes runnable join
 * the tail of its priority's list, and so it does; Linux gives wake-up
 * preemption to SCHED_NORMAL wakees only, not to SCHED_BATCH or
 * SCHED_IDLE ones; and a thread a tick preempted since it last waited
 * computes, and queues at the tail as before.
 */
#define GREEN_WAITS_ON_THREADS (1u << GW_MUTEX | 1u << GW_COND | 1u << GW_JOIN | 1u << GW_ADDR | \
                                1u << GW_RWLOCK | 1u << GW_BARRIER | 1u << GW_SEM | 1u << GW_FUTEX)
static int woken_by_thread(const struct green_thread *t)
{
	return !t->wake && (GREEN_WAITS_ON_THREADS >> t->wait & 1) && !t->level &&
	       t->policy == SCHED_OTHER && !t->computing;
}

/*
 * Where such a thread queues: at the front of level 0, so that it runs
 * when the running thread's turn ends; behind the ones woken from the
 * same object earlier in the same turn, so that a broadcast's, a
 * barrier's or a post's waiters keep their order (but not behind the
 * ones woken from other objects then: a turn can be long, and a thread
 * woken at its end would queue behind every thread woken at its start).
 * The first woken into an empty level took runq.h's plain push, which
 * records nothing (a ping-pong's every wake): the next ones queue ahead
 * of it, as of any thread runnable before.  The bound: the thread it
 * passes, the first behind that batch, lets RUNQ_PASSES threads ahead
 * in its wait on the run queue; then
 * woken threads queue where a thread that slept on a descriptor does
 * (runq_push_sleeper: behind it, ahead of the computing ones, which
 * have their own count).  So two threads that keep waking each other
 * let each runnable thread run after at most RUNQ_PASSES of their turns.
 * Called with level 0 not empty.
 */
static void push_woken(struct green_thread *t)
{
	struct green_runq *r = &__green_runq;
	struct gq *q = &r->lv[0];
	struct green_thread *p = 0, *f;

	if (r->woke_turn == __green_nswitch + 1 && r->woke_obj == t->wait_obj && r->woke->q == q)
		p = r->woke;
	f = p ? p->q_next : q->head;
	if (f && f->passes < RUNQ_PASSES) {
		f->passes++;
		runq_insert_before(t, 0, q, p, f);
	} else if (f) {
		runq_push_sleeper(t);
	} else {
		runq_push(t);   /* the batch reaches the tail */
	}
	r->woke = t;
	r->woke_obj = t->wait_obj;
	r->woke_turn = __green_nswitch + 1;
}

/* green_wake_off's case of others runnable at t's level (runq.h): t,
 * its wait and its result still set, queues at the tail, or where
 * push_woken says for a thread another thread woke */
hidden void __green_runq_wake_queued(struct green_thread *t)
{
	t->state = GS_RUNNABLE;
	if (woken_by_thread(t)) push_woken(t);
	else runq_push(t);
	t->computing = 0;   /* it waited */
	t->wait = GW_NONE;
	t->wait_obj = 0;
}
