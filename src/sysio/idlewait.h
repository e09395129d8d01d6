/*
 * idlewait.h — the scheduler's and the tick's wait on the kernel (poll.c
 * in the I/O layer): all a core file needs of the multiplexer.
 */
#ifndef GREEN_IDLEWAIT_H
#define GREEN_IDLEWAIT_H
#include "seam.h"

/* ---- idle: wait for the kernel until a deadline (poll.c)
 * __green_poll_wait: block in the kernel until an awaited descriptor is
 *   ready, the deadline passes or a signal arrives; wake the threads whose
 *   events happened.  Called by the scheduler only when nothing can run.
 * __green_poll_check: the same without blocking; called at each tick.
 * __green_poll_waiters: how many threads wait on the kernel (descriptors,
 *   children): a wake source the deadlock detector must respect. */
hidden int __green_poll_wait(uint64_t deadline);
hidden void __green_poll_check(void);
hidden int __green_poll_waiters(void);
extern hidden const uint64_t *__green_idle_mask; /* poll.c: the mask the idle wait restores */

#endif
