/*
 * tick.h — the tick (tick.c): time slicing, the periodic check for
 * expired and ready waiters, and the switch count it watches.
 */
#ifndef GREEN_TICK_H
#define GREEN_TICK_H
#include "base/seam.h"

hidden void __green_tick_arm(void);             /* two threads may run: start slicing */
hidden void __green_tick_watch(void);           /* threads wait: keep ticking (tick.c) */
hidden void __green_tick_check(void);           /* wake expired and ready waiters */
hidden int __green_tick_slice_over(int used);   /* should the running thread yield now? */
hidden int __green_tick_slice_pending_over(void);   /* the same for GREEN_PEND_SLICE, if still its quantum */
hidden void __green_tick_accepted(void);        /* the running thread accepted a connection */
hidden void __green_tick_after_fork(void);
extern hidden int __green_ticking;
extern hidden unsigned long __green_nswitch;

#endif
