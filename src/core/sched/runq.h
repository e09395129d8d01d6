/*
 * runq.h — the run queue: RUNNABLE threads by priority.
 *
 * One FIFO per priority level (0 for SCHED_OTHER, 1..99 for SCHED_FIFO
 * and SCHED_RR, as Linux numbers them) and a bitmap of the non-empty
 * levels: the highest non-empty level runs first, FIFO within a level
 * (Marovich's real-time policy).  A thread's level is its own priority
 * raised by any priority-inheritance boost (mutex.c).  Inline because
 * every yield pushes and pops it.  A level's bit is set exactly while
 * its queue holds a thread: everything that takes a thread off the run
 * queue goes through runq_pop_at or runq_remove.
 */
#ifndef GREEN_RUNQ_H
#define GREEN_RUNQ_H

#include <sched.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "base/gconfig.h"
#include "sched/tick.h"

#define RQ_LEVELS 100
#define RQ_BITS (8 * (int)sizeof(unsigned long))
#define RQ_WORDS ((RQ_LEVELS + RQ_BITS - 1) / RQ_BITS)

struct green_runq {
	struct gq lv[RQ_LEVELS];
	unsigned long bits[RQ_WORDS];
	unsigned long n;   /* threads on the run queue, every level: the fair slice's divisor (tick.c) */
	/* the last thread another woke to the front (runq_push_woken), what
	 * it waited on, and __green_nswitch + 1 then: the next woken from
	 * the same object in the same turn queues behind it */
	struct green_thread *woke;
	const void *woke_obj;
	unsigned long woke_turn;
};
extern hidden struct green_runq __green_runq;
hidden void __green_runq_reset(void);            /* runq.c: in a fork child */

/* The level a thread is scheduled at, kept in the descriptor: every
 * change of its policy, priority or boost is followed by green_relevel
 * (before any requeue), and every queue operation reads the level. */
static inline void green_relevel(struct green_thread *t)
{
	int p = t->policy == SCHED_FIFO || t->policy == SCHED_RR ? t->prio : 0;
	if (t->boost > p) p = t->boost;
	t->level = p < 0 ? 0 : p >= RQ_LEVELS ? RQ_LEVELS - 1 : p;
	if (t->level) __green_yield_gate.flag[GREEN_GATE_LEVELS] = 1;   /* for good */
}

static inline int green_level(const struct green_thread *t)
{
	return t->level;
}

/* the highest level with a runnable thread, or -1 */
static inline int runq_top(void)
{
	for (unsigned w = RQ_WORDS; w--; ) {
		unsigned long b = __green_runq.bits[w];
		/* the highest bit's number, (RQ_BITS - 1) - clz as an xor:
		 * one bsr, not a subtraction from the word's last level */
		if (b) return w * RQ_BITS + (__builtin_clzl(b) ^ (RQ_BITS - 1));
	}
	return -1;
}

/* Is level l the top (its queue not empty, every level above it
 * empty)?  runq_top() == l without the bit scan: sched_yield's look. */
static inline int runq_top_is(unsigned l)
{
	unsigned w = l / RQ_BITS;

	/* the first word by its own name: no base address to compute */
	if ((__builtin_expect(!w, 1) ? __green_runq.bits[0] : __green_runq.bits[w]) >> l % RQ_BITS != 1)
		return 0;
	while (++w < RQ_WORDS)
		if (__green_runq.bits[w]) return 0;
	return 1;
}

/* A thread above the running one became runnable: the outermost
 * GREEN_LEAVE yields to it. */
static inline void runq_note(struct green_thread *t, unsigned l)
{
	struct green_thread *c;
	if (!l) return;   /* level 0 is above nobody: the usual case, one test */
	c = __green_cur;
	if (c && c != t && c->state == GS_RUNNING && l > (unsigned)green_level(c))
		green_pending_set(GREEN_PEND_YIELD);
}

/* level l's queue was empty and now is not */
static inline void runq_mark(unsigned l)
{
	__green_runq.bits[l / RQ_BITS] |= 1UL << l % RQ_BITS;
}

/* t, on no queue since its last turn, joins level l's queue q behind p,
 * its tail: its links are 0, as every way off a queue leaves them
 * (runq_rotate; invariants.c checks it at each switch), so only those
 * that change are stored (peer.c's wake: a thread in the usual wait) */
static inline void runq_push_behind_unlinked(struct green_thread *t, unsigned l, struct gq *q,
                                             struct green_thread *p)
{
	t->q = q;
	q->tail = t;
	__green_runq.n++;
	if (p) {
		t->q_prev = p;
		p->q_next = t;
	} else {
		q->head = t;
		runq_mark(l);
	}
	runq_note(t, l);
}

/* The same for a t whose links may be another queue's (gq_detach leaves
 * them): both set first */
static inline void runq_push_behind(struct green_thread *t, unsigned l, struct gq *q,
                                    struct green_thread *p)
{
	t->q_next = 0;
	t->q_prev = p;
	runq_push_behind_unlinked(t, l, q, p);
}

static inline void runq_push(struct green_thread *t)
{
	unsigned l = green_level(t);
	struct gq *q = &__green_runq.lv[l];

	runq_push_behind(t, l, q, q->tail);
}

/* a thread that must run soon (a signal for it): ahead of its level */
static inline void runq_push_front(struct green_thread *t)
{
	unsigned l = green_level(t);
	struct gq *q = &__green_runq.lv[l];
	struct green_thread *n = q->head;

	t->q = q;
	t->q_prev = 0;
	t->q_next = n;
	q->head = t;
	__green_runq.n++;
	if (n) {
		n->q_prev = t;
	} else {
		q->tail = t;
		runq_mark(l);
	}
	runq_note(t, l);
}

/* t joins level l's queue q ahead of f, a thread on it, behind p, f's
 * predecessor (0: f is the head) */
static inline void runq_insert_before(struct green_thread *t, unsigned l, struct gq *q,
                                      struct green_thread *p, struct green_thread *f)
{
	t->q = q;
	t->q_prev = p;
	t->q_next = f;
	f->q_prev = t;
	if (p) p->q_next = t;
	else q->head = t;
	__green_runq.n++;
	runq_note(t, l);
}

/* A thread that slept (its descriptor became ready, at a tick or in the
 * idle wait): ahead of the threads of its level that a tick preempted
 * (computing), behind every other; at the tail when none computes, the
 * usual case, after one look at the tail.  The preempted ones are the
 * tail's run: the walk back is as long as they are many.  The first of
 * them lets RUNQ_PASSES threads ahead in its wait for the CPU (these
 * sleepers, and threads another thread woke: runq.c), then they queue
 * behind it too: threads that keep waking cannot keep the computing
 * ones off the CPU (at most RUNQ_PASSES turns of sleepers, each a
 * minimum granularity before the tick sends it behind as computing in
 * turn: tick.c).  A thread's count is cleared as it leaves the run
 * queue (runq_pop_at, runq_rotate, runq_remove). */
#define RUNQ_PASSES 8
static inline __attribute__((always_inline)) void runq_push_sleeper(struct green_thread *t)
{
	unsigned l = green_level(t);
	struct gq *q = &__green_runq.lv[l];
	struct green_thread *p = q->tail, *f;

	if (__builtin_expect(!p || !p->computing, 1)) {
		runq_push(t);
		return;
	}
	while (p && p->computing) p = p->q_prev;
	f = p ? p->q_next : q->head;   /* the first computing one */
	if (f->passes >= RUNQ_PASSES) {
		runq_push(t);
		return;
	}
	f->passes++;
	runq_insert_before(t, l, q, p, f);
}

hidden void __green_runq_wake_queued(struct green_thread *t);   /* runq.c */

/* Make t runnable: at the front of its level when front, else at its
 * tail; the first thread made runnable beside the running one starts
 * the ticks (__green_ready is the out-of-line copy). */
static inline void runq_ready(struct green_thread *t, int front)
{
	t->state = GS_RUNNABLE;
	t->computing = 0;   /* it waited */
	if (front) runq_push_front(t);
	else runq_push(t);
	if (!__green_ticking) __green_tick_arm();   /* two threads can run now */
}

/* Make a blocked t runnable with `why` as its wait's result, t already
 * off its wait queue and its deadline (a condition's signal, which has
 * popped it and deleted its deadline itself). */
static inline void green_wake_off(struct green_thread *t, int why, int front)
{
	unsigned l = green_level(t);
	struct gq *q = &__green_runq.lv[l];
	struct green_thread *p = q->tail;

	t->wake = why;
	if (!front && __builtin_expect(p != 0, 0)) {
		/* others runnable at its level: its place depends on what
		 * woke it (runq.c) */
		__green_runq_wake_queued(t);
	} else {
		t->wait = GW_NONE;
		t->wait_obj = 0;
		t->state = GS_RUNNABLE;
		t->computing = 0;   /* it waited */
		if (front) runq_push_front(t);
		else runq_push_behind(t, l, q, p);
	}
	if (!__green_ticking) __green_tick_arm();   /* as runq_ready */
}

/* Take a blocked t off whatever it waits on (its queue, its deadline)
 * and make it runnable with `why` as its wait's result (__green_wake and
 * __green_wake_first are the out-of-line copies). */
static inline void green_wake(struct green_thread *t, int why, int front)
{
	if (t->state != GS_BLOCKED) return;
	if (t->q) __gq_remove(t);
	if (t->heap_idx) __green_timer_del(t);
	green_wake_off(t, why, front);
}

/* The part of green_wake_sleeper every wake-up by I/O makes: t (blocked,
 * with no deadline) out of the kernel-wait queue if it is on it (the
 * usual wait, src/sysio/io.h, is on none), its links left for the run
 * queue to set as t joins it, its wait over with 0, runnable; the caller
 * queues it.  Below, from the last step up: t's wait over and t
 * runnable, its wake left as its park set it, 0 (block.h: every wake
 * that sets another makes t runnable in the same section, so a t still
 * blocked has the 0 of its park; peer.c's wake) ... */
static inline __attribute__((always_inline)) void green_sleeper_unwait_parked(struct green_thread *t)
{
	t->wait = GW_NONE;
	t->wait_obj = 0;
	t->state = GS_RUNNABLE;
	t->computing = 0;   /* it waited */
}

/* ... its wake set to 0 as well (a t whose wake may be another) ... */
static inline __attribute__((always_inline)) void green_sleeper_unwait_off(struct green_thread *t)
{
	t->wake = 0;
	green_sleeper_unwait_parked(t);
}

/* ... and t taken off the kernel-wait queue first if it is on it */
static inline __attribute__((always_inline)) void green_sleeper_unwait(struct green_thread *t)
{
	if (t->q) gq_detach(t);
	green_sleeper_unwait_off(t);
}

/* Does a blocked t, woken by I/O, go to the tail of level 0 with nothing
 * more to do?  At level 0, no deadline, on no queue (the usual wait,
 * src/sysio/io.h), ticks running (which the caller has looked at):
 * runq_push_sleeper's usual case, with no call to make (peer.c's wake
 * in line), once the caller has seen no thread a tick preempted at the
 * tail. */
static inline int green_sleeper_plain(const struct green_thread *t)
{
	return !(t->level | t->heap_idx | (uintptr_t)t->q);
}

/* green_wake for a thread whose descriptor became ready (the multiplexer,
 * src/sysio/): a sleeper's place (runq_push_sleeper), woken with 0.
 * Always in line: each wake-up by I/O is one (GCC would otherwise call
 * a part of it out of line from the multiplexer's round). */
static inline __attribute__((always_inline)) void green_wake_sleeper(struct green_thread *t)
{
	if (t->state != GS_BLOCKED) return;
	if (t->heap_idx) __green_timer_del(t);
	green_sleeper_unwait(t);   /* in line: every wake-up by I/O */
	runq_push_sleeper(t);
	if (!__green_ticking) __green_tick_arm();
}

/* the head of level l, which is not empty; its links left 0 (its next
 * cleared only when it had one) */
static inline struct green_thread *runq_pop_at(unsigned l)
{
	struct gq *q = &__green_runq.lv[l];
	struct green_thread *t = q->head, *n = t->q_next;
	q->head = n;
	if (n) {
		n->q_prev = 0;
		t->q_next = 0;
	} else {
		q->tail = 0;
		__green_runq.bits[l / RQ_BITS] &= ~(1UL << l % RQ_BITS);
	}
	t->q = 0;
	t->passes = 0;   /* counted again in its next wait for the CPU */
	__green_runq.n--;
	return t;
}

/* The running thread t yields to the head of its own level, the top:
 * the head out, t to the tail.  The level stays non-empty, so its bit
 * stays as it is; and nobody above t became runnable, so no note.  A
 * thread on no queue has both links 0 (every way off a queue clears
 * them, and a new descriptor starts zeroed), so t's are stored only
 * where they change, and the head's next only when it had one. */
static inline struct green_thread *runq_rotate(struct green_thread *t, unsigned l)
{
	struct gq *q = &__green_runq.lv[l];
	struct green_thread *h = q->head, *n = h->q_next, *p = q->tail;

	/* the tail here and the head below, in blocks of their own: two
	 * plain stores (GCC would otherwise pack the pair into one vector
	 * store, four instructions more) */
	q->tail = t;
	if (n) {   /* others behind the head: t joins them at the tail */
		n->q_prev = 0;
		p->q_next = t;
		t->q_prev = p;
		h->q_next = 0;
	} else {   /* the head was alone: t is alone now */
		n = t;
	}
	q->head = n;
	t->q = q;
	h->q = 0;
	h->passes = 0;
	return h;
}

/* the next thread to run: the head of the top level, or GREEN_SCHED's
 * choice (explore.c); 0 if none is runnable */
static inline struct green_thread *runq_pick(void)
{
	int l;

	/* every thread at level 0, no exploration (the gate's bytes, as
	 * sched_yield reads them): level 0's queue, at an address known at
	 * link time, without the bit scan */
	if (__builtin_expect(!(__green_yield_gate.flag[GREEN_GATE_LEVELS] |
	                       __green_yield_gate.flag[GREEN_GATE_EXPLORE]), 1))
		return __green_runq.lv[0].head ? runq_pop_at(0) : 0;
	if ((l = runq_top()) < 0) return 0;
	return __green_xmode ? __green_explore_pick() : runq_pop_at(l);
}

/* take a runnable thread off the run queue, wherever it is in it */
static inline void runq_remove(struct green_thread *t)
{
	unsigned l = t->q - __green_runq.lv;
	__gq_remove(t);
	t->passes = 0;
	__green_runq.n--;
	if (!__green_runq.lv[l].head)
		__green_runq.bits[l / RQ_BITS] &= ~(1UL << l % RQ_BITS);
}

static inline int runq_empty(void)
{
	return runq_top() < 0;
}

/* Is any thread runnable?  The bitmap's words or'd together, without
 * runq_top's bit scan: sched_yield's first look. */
static inline int runq_maybe(void)
{
	unsigned long b = 0;
	for (int w = 0; w < RQ_WORDS; w++) b |= __green_runq.bits[w];
	return b != 0;
}

/* out of line (runq.c) */
hidden void __green_runq_requeue(struct green_thread *, int front);
hidden int __green_runq_should_preempt(struct green_thread *cur);
hidden int __green_runq_higher(struct green_thread *cur);

#endif
