/*
 * words.h — the packed words: facts the fast paths test together in one
 * load, a byte or a bit each.  Every packed word of the core is here,
 * with each part's writers and readers and, where its fact is also held
 * elsewhere, where and why.  A fact stored in two places is stored in
 * two places only when one is a packed copy that a fast path tests with
 * the others; the copy is written in the same statement as, or right
 * after, the fact it copies, and nowhere else.
 *
 * __green_pending   8 bytes, tested as one word by every outermost
 *                   section end (GREEN_LEAVE, section.h): work it must do.
 *                   A byte each, so that a signal handler and the thread
 *                   set and clear flags with plain byte stores and never
 *                   undo each other's change (no read-modify-write).
 *   [YIELD]    a thread above the running one is runnable.  Set: runq.h
 *              (runq_ready), mutex.c (a priority boost), thread_np.c (a
 *              priority lowered), sched.c (a yield that left one above).
 *              Cleared: a yield (sched.c, green_pending_clear_yield),
 *              preempt.c.  Also held by: the run queue's level bitmap
 *              (runq.h), from which it is derived.
 *   [SLICE]    the slice is used.  Set: tick.c.  Cleared: a yield,
 *              preempt.c (a flag older than the last switch is dropped:
 *              __green_tick_deferred).
 *   [SIG]      signals arrived for dispatch.  Set and cleared: deliver.c.
 *              Also held by: the pending sets of the process and the
 *              threads (gsignal.h), which say which; this says "look".
 *   [POLL]     a periodic check of kernel waits is due.  Set: tick.c.
 *              Cleared: preempt.c.
 *   [EXPLORE]  GREEN_SCHED is on: every outermost section end is a
 *              scheduling point.  Set once: explore.c; never cleared.
 *              Also held by: __green_xmode (below), the mode itself,
 *              and the gate's [EXPLORE]: a copy in each word a fast
 *              path tests, so that GREEN_LEAVE's one test covers it.
 *   [REAP]     exited detached threads' stacks wait to be freed.  Set
 *              and cleared: switch.c.  Also held by: the reap list
 *              (switch.c), non-empty exactly while this is set.
 *   [RECORD]   the run is recorded or replayed: every outermost section
 *              end is a countable point.  Set once: record/record.c;
 *              never cleared.  Also held by: __green_rmode, the mode.
 *
 * __green_yield_gate  4 bytes, tested as one word by sched_yield
 *                   (sched.c): a yield with all four clear makes one
 *                   test.  Written by the thread only (no handler).
 *   [EXPLORE]  GREEN_SCHED is on.  Set once: explore.c, in the same
 *              statements as __green_xmode, which it copies so that a
 *              yield's one test covers it.
 *   [KERNEL_RT] the kernel policy of the process: 1 real-time, 0 not,
 *              -1 not known yet.  Set: sched.c (asked at the first
 *              yield), thread_np.c (sched_setscheduler), fork.c
 *              (unknown again).  The kernel holds the fact itself.
 *   [TIMERS]   the timer heap holds a deadline.  Set and cleared:
 *              timer.c, with the heap's length (the fact) in the same
 *              function.
 *   [LEVELS]   some thread has been above level 0 (set for good; while
 *              clear, every thread is at level 0 and a busy yield looks
 *              at level 0 alone).  Set: runq.h (green_relevel).
 *
 * __green_switch_kind  bits, tested by every switch (switch.h): 0, the
 *                   usual case, in one test.  Set for good, never cleared.
 *   GREEN_SWITCH_TP   threads have TCBs of their own; the switch moves
 *              the thread pointer.  Set: tls.c, when the first thread
 *              gets its own TCB.
 *   GREEN_SWITCH_CPU  a CPU-time clock was asked for; the switch charges
 *              the outgoing thread.  Set: cputime.c.  Read as
 *              green_cpu_on() (cputime.h).
 *   GREEN_SWITCH_CHECK  GREEN_DEBUG asks for the invariant checks at
 *              every switch (check.h).  Set: create.c, at start-up.
 *              Also held by: __green_config.debug, the setting itself.
 *   GREEN_SWITCH_DTV  threads share one TCB and an object loaded at run
 *              time has TLS: the switch binds the TCB's DTV shallowly
 *              too.  Set: dtv.c (green's libc.so only).
 *
 * __green_xmode     not packed: GREEN_SCHED's mode (GREEN_SCHED_RANDOM,
 *                   _PCT; 0 off), the fact the two EXPLORE copies above
 *                   are made from.  Set once: explore.c.  An int, so
 *                   that a fast path tests it or-ed into an int word of
 *                   its object in one instruction (green_zero_unexplored);
 *                   read wherever a seeded schedule changes what a call
 *                   does (the clocks, the lock paths, the run queue's
 *                   pick, the memory points).
 */
#ifndef GREEN_WORDS_H
#define GREEN_WORDS_H
#include <stdint.h>
#include "base/seam.h"

union green_pending {
	unsigned char flag[8];
	uint16_t pair[4];                           /* two neighbours at once */
	uint64_t any;                               /* any flag set */
};
extern hidden volatile union green_pending __green_pending;   /* sched.c */
enum {
	GREEN_PEND_YIELD,                           /* a thread above the running one is runnable */
	GREEN_PEND_SLICE,                           /* the quantum is used: yield if the policy lets */
	GREEN_PEND_SIG,                             /* signals arrived: dispatch them */
	GREEN_PEND_POLL,                            /* wake expired and ready waiters */
	GREEN_PEND_EXPLORE,                         /* GREEN_SCHED: a scheduling point */
	GREEN_PEND_REAP,                            /* exited detached threads' stacks to free */
	GREEN_PEND_RECORD,                          /* green-record/replay: a countable point */
};

union green_yield_gate {
	signed char flag[4];
	uint32_t any;
};
extern hidden union green_yield_gate __green_yield_gate;     /* sched.c */
enum {
	GREEN_GATE_EXPLORE,                         /* GREEN_SCHED is on */
	GREEN_GATE_KERNEL_RT,                       /* the kernel policy: real-time 1, other 0, -1 not known yet */
	GREEN_GATE_TIMERS,                          /* the timer heap holds a deadline */
	GREEN_GATE_LEVELS,                          /* some thread has been above level 0 */
};
#define __green_kernel_rt (__green_yield_gate.flag[GREEN_GATE_KERNEL_RT])
/* A fast path's gate: the word x is 0 and GREEN_SCHED is off, in one
 * branch (the mode's byte or-ed into x; written as two tests, the
 * compiler loads and branches twice). */
#define green_zero_unexplored(x) (!((x) | __green_xmode))

extern hidden int __green_xmode;                              /* explore.c */

enum { GREEN_SWITCH_TP = 1, GREEN_SWITCH_CPU = 2, GREEN_SWITCH_CHECK = 4, GREEN_SWITCH_DTV = 8 };
extern hidden unsigned char __green_switch_kind;             /* switch.c */

#endif
