/*
 * tick.h — the tick (tick.c): time slicing, the periodic check for
 * expired and ready waiters, and the switch count it watches.
 */
#ifndef GREEN_TICK_H
#define GREEN_TICK_H
#include "base/seam.h"

hidden void __green_tick_arm(void);             /* two threads may run: start slicing */
hidden void __green_tick_watch(void);           /* threads wait: keep ticking (tick.c) */
hidden int __green_tick_check(void);            /* wake expired and ready waiters: any? */
/* Does the running thread, having run ran ns in its turn, give up the
 * CPU now?  0, or how (__green_preempt_yield): */
enum { GREEN_PREEMPT_TAIL = 1,    /* its slice is used: to the tail, computing */
       GREEN_PREEMPT_KEEP,        /* a thread that slept waits: first among the computing */
       GREEN_PREEMPT_HIGHER };    /* a thread of a higher priority is runnable */
hidden int __green_tick_slice_over(uint64_t ran);
hidden int __green_tick_deferred(int slice);    /* the same, at a section's end (preempt.c) */
hidden void __green_tick_soon(void);            /* a signal woke a thread: tick within a granularity */
hidden void __green_tick_accepted(void);        /* the running thread accepted a connection */
hidden void __green_tick_after_fork(void);
extern hidden int __green_ticking;
extern hidden unsigned long __green_nswitch;
extern hidden unsigned long __green_idles;      /* the scheduler's idle waits so far (sched.c) */

#endif
