/*
 * pos.c — partial order sampling, GREEN_SCHED=pos:SEED (Yuan, Yang and
 * Gu, "Partial Order Aware Concurrency Sampling", CAV 2018).
 *
 * PCT gives each thread one priority and changes a few of them at random
 * steps; a bug that needs one particular thread among many to run at one
 * moment is then as unlikely as that thread's rank.  POS gives each
 * *event* a priority instead: every time a thread reaches a scheduling
 * point, the event it is about to make draws a fresh random priority,
 * and the runnable event of highest priority runs (explore.c's pick,
 * as for PCT).  A thread that lost keeps its priority, so it stays
 * behind for a while — the delays that split a read-modify-write or hold
 * a thread between two stages come for free — and a thread that won
 * draws again at its next point.  Events that conflict with the one that
 * ran (the same memory word, one of them a write) draw again too: their
 * order relative to it is settled, and keeping a priority that lost to
 * it would bias the next choice.  The paper shows that this samples
 * every partial order of conflicting events with a probability that
 * does not shrink with the number of unrelated events, where a random
 * walk's does.
 *
 * What an event is, here: the code between two scheduling points of a
 * thread.  Only accesses of `--sched-points=memory` code say what they
 * touch (explore.c's __green_explore_access_point): a library point
 * (GREEN_LEAVE) or a block point of `--sched-points` code conflicts with
 * nothing.  Block points are many and say nothing, so one event spans a
 * run of them: a fresh draw at one block in FINE_RUN (else the program
 * would do little but switch).  In a program that has memory points too
 * (`--sched-points=all`), a block point marks code that made no memory
 * access at all: a local step, which commutes with every other thread's
 * events, so it is part of the event that ends at the next access or
 * library point and never a point of its own.  Long private work then
 * costs POS nothing, where it would dilute the few draws that order
 * the accesses that matter.  A thread that says it waits for another
 * (sched_yield, a failed trylock, a tiny sleep: explore.c) drops below
 * every other as under PCT, and keeps that place until its next point.
 *
 * State: the priorities and pending accesses live in the descriptors
 * (xprio, xevent); touched by the running thread only, with no switch
 * inside.
 */
#include "base/gthread.h"
#include "sched/pos.h"

#define FINE_RUN 32          /* block points per event, on average */

static unsigned kept;        /* the thread whose demotion its next point keeps */

/* The running thread reached a point: its next event draws a priority.
 * 0 when this is a block point inside the current event. */
hidden int __green_pos_point(struct green_thread *self, int fine)
{
	uint64_t r;

	if (fine && !__green_explore_access) {
		if (__green_mp_built) return 0;   /* code without accesses: a local step */
		r = __green_explore_fresh();
		if (r % FINE_RUN) return 0;
	}
	self->xevent = __green_explore_access;
	if (kept == self->id) {
		kept = 0;
		return 1;
	}
	self->xprio = __green_explore_fresh();
	return 1;
}

/* The thread said it waits for another: its low priority holds. */
hidden void __green_pos_yielded(struct green_thread *self)
{
	kept = self->id;
}

/* Do two pending accesses conflict: the same word, one a write? */
static int conflict(uintptr_t a, uintptr_t b)
{
	return a && b && (a | 1) == (b | 1) && ((a | b) & 1);
}

/* best was chosen from q and makes its event now: the events of q that
 * conflict with it draw again. */
hidden void __green_pos_ran(struct gq *q, struct green_thread *best)
{
	struct green_thread *t;

	for (t = q->head; t; t = t->q_next)
		if (t != best && t->xprio && conflict(t->xevent, best->xevent))   /* xevent: valid once seen */
			t->xprio = __green_explore_fresh();
}
