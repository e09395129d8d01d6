/*
 * gfork.h — fork (fork.c), and what each subsystem forgets in the child.
 */
#ifndef GREEN_GFORK_H
#define GREEN_GFORK_H
#include "seam.h"

hidden void __green_fork_child(void);            /* fork.c: only the caller survives */
/* what each subsystem forgets in a fork child */
hidden void __green_runq_reset(void);            /* runq.c */
hidden void __green_timers_reset(void);          /* timer.c */
hidden void __green_futex_reset(void);           /* futex.c */
hidden void __green_reap_reset(void);            /* switch.c */
hidden void __green_io_reset(void);              /* io.c */
hidden void __green_pmutex_reset(void);          /* pmutex.c */

#endif
