/*
 * idlewait.h — the scheduler's and the tick's wait on the kernel (poll.c
 * in the I/O layer): all a core file needs of the multiplexer.
 */
#ifndef GREEN_IDLEWAIT_H
#define GREEN_IDLEWAIT_H
#include "base/seam.h"

/* ---- idle: wait for the kernel until a deadline (poll.c)
 * __green_poll_wait: block in the kernel until an awaited descriptor is
 *   ready, the deadline passes or a signal arrives; wake the threads whose
 *   events happened.  Called by the scheduler only when nothing can run,
 *   with every signal blocked: the wait itself restores `mask` (the
 *   kernel's pselect6, ppoll, epoll_pwait2 take it), so that no signal
 *   slips in between the scheduler's last look at the caught signals
 *   and the wait.
 *   With mask 0 (when __green_poll_maskless says it may be) no mask is
 *   swapped in: the scheduler's caller leaves signals as they are, and a
 *   handler that runs from the wait's last look at the caught signals on
 *   cuts its timeout to 0 (__green_idle_kts, gsched.h), so that no
 *   signal caught just before the system call leaves it waiting.
 * __green_poll_check: the same without blocking; called at each tick.
 * __green_poll_waiters: how many threads wait on the kernel (descriptors,
 *   children): a wake source the deadlock detector must respect. */
hidden int __green_poll_wait(uint64_t deadline, const uint64_t *mask);
hidden void __green_poll_check(void);
hidden int __green_poll_waiters(void);
hidden int __green_poll_maskless(void);
/* the multiplexer's rounds so far: a tick that finds one since the last
 * spares its own look at the descriptors (tick.c) */
extern hidden unsigned long __green_io_rounds;

#endif
