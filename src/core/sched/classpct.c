/*
 * classpct.c — PCT over classes of threads, with its priority change
 * points at first touches: GREEN_SCHED=class:SEED[:DEPTH[:TOUCHES[:STEPS]]].
 *
 * PCT (explore.c) gives each thread a random priority; a bug that needs
 * one thread among n to run at one moment is found with probability
 * about 1/n, and one that needs the creator to make all its threads
 * before any of them gets far, about 1/n as well.  With a hundred
 * workers and one thread that checks them, both at once: out of reach.
 * But workers that run the same start routine are interchangeable —
 * which of them runs matters far less than whether a worker or the
 * checker does (the symmetry of model checking).  So here the priority
 * belongs to a class, the threads of one start routine (main is a class
 * of its own): the class gets a random priority when first seen, the
 * thread of the highest class runs, the oldest of its class first, and
 * a change point drops a whole class below every fresh one and sends
 * the running thread behind the others of its class.  The
 * guarantee of PCT then holds with n the number of classes.
 *
 * A change point falls, one time in two, at a first touch of memory
 * (src/mempoints/shared.c: the first access to a page by the first
 * thread and by the second), drawn among the first TOUCHES of them; the
 * other times at a step drawn in [1, STEPS], as PCT's.  A thread that
 * has just written memory nobody else has seen, or read memory another
 * thread wrote, is at the moment another thread's view of it can go
 * wrong, and a run makes a few first touches where it makes thousands
 * of steps: there a change point is likely to fall right.  DEPTH-1
 * change points (DEPTH 3 by default); green-explore counts TOUCHES and
 * STEPS with one run, as it measures PCT's steps.  Without memory
 * points (a build without `--sched-points=memory` or `=all`) there are
 * no first touches, and only the changes at steps act.
 *
 * A thread that says it waits for another (sched_yield, a failed
 * trylock, a tiny sleep: explore.c) drops its class below every other,
 * as under PCT, and itself behind the other threads of its class, the
 * one it waits for among them.  State touched by the running thread only, inside a
 * no-preempt section or where no switch happens.
 */
#include "base/gthread.h"
#include "sched/pos.h"

#define MAX_CLASSES 64   /* past this, the others share the last class */
#define MAX_CHANGES 9

static struct {
	void *(*start)(void *);
	uint64_t prio;
} cls[MAX_CLASSES];
static unsigned ncls;
static uint64_t touches, change_at[MAX_CHANGES];   /* a first touch's number, or 0 */
static uint64_t step_at[MAX_CHANGES];               /* a step, or 0 */
static int nchange;
static uint64_t behind;        /* threads sent behind their class so far */

/* The priority of t's class, a fresh one when the class is new. */
static uint64_t *class_of(const struct green_thread *t)
{
	unsigned c;
	for (c = 0; c < ncls; c++)
		if (cls[c].start == t->start) return &cls[c].prio;
	if (ncls == MAX_CLASSES) return &cls[MAX_CLASSES - 1].prio;
	cls[ncls].start = t->start;
	cls[ncls].prio = __green_explore_fresh();
	return &cls[ncls++].prio;
}

/* A change point, or a yield: the running thread's class drops to
 * prio, and the thread goes behind the others of its class (two threads
 * of one routine interleave too; a spinner may wait for one of its own). */
static void change(uint64_t prio)
{
	*class_of(__green_cur) = prio;
	__green_cur->xprio = ++behind;
}

/* depth-1 change points, each at one of the first `span` first touches
 * or at one of the first `steps` steps. */
hidden void __green_class_init(int depth, uint64_t span, uint64_t steps, uint64_t (*below)(uint64_t))
{
	nchange = depth - 1 < MAX_CHANGES ? depth - 1 : MAX_CHANGES;
	for (int i = 0; i < nchange; i++)
		if (below(2)) change_at[i] = 1 + below(span);
		else step_at[i] = 1 + below(steps);
}

/* A step of the running thread: a change point at a step drops its
 * class as one at a first touch does. */
hidden void __green_class_step(uint64_t step, uint64_t low)
{
	for (int i = 0; i < nchange; i++)
		if (step_at[i] == step) change(low + i + 1);
}

/* Within a class: the thread sent behind it last goes last (xprio, its
 * place among those sent behind, 0 for one never sent), then the oldest. */
static int before(const struct green_thread *a, const struct green_thread *b)
{
	return a->xprio != b->xprio ? a->xprio < b->xprio : a->id < b->id;
}

/* The thread to run from q (not empty): of the highest class, the first. */
hidden struct green_thread *__green_class_pick(struct gq *q)
{
	struct green_thread *t, *best = q->head;
	uint64_t p, bp = *class_of(best);

	for (t = q->head->q_next; t; t = t->q_next)
		if ((p = *class_of(t)) > bp || (p == bp && before(t, best))) {
			best = t;
			bp = p;
		}
	return best;
}

/* A first touch by the running thread: a change point drops its class
 * to low + the change point's index (later indices above earlier). */
hidden void __green_class_touched(uint64_t low)
{
	touches++;
	for (int i = 0; i < nchange; i++)
		if (change_at[i] == touches) change(low + i + 1);
}

/* The running thread waits for another: its class drops to prio. */
hidden void __green_class_yielded(uint64_t prio)
{
	change(prio);
}

/* First touches so far (the report's touches=, for calibration). */
hidden uint64_t __green_class_touches(void)
{
	return touches;
}
