/*
 * gfork.h — fork (fork.c): the child keeps only the thread that forked.
 */
#ifndef GREEN_GFORK_H
#define GREEN_GFORK_H
#include "base/seam.h"

/* Only the caller survives.  What each subsystem forgets in the child
 * is declared by its own header, beside the state it forgets, and
 * fork.c calls each from above: __green_runq_reset (runq.h),
 * __green_timers_reset and __green_reap_reset (gsched.h),
 * __green_futex_reset and __green_pshared_reset (addrwait.h),
 * __green_pmutex_reset (sync.h), __green_io_reset (ioq.h). */
hidden void __green_fork_child(void);

#endif
