/*
 * green.h — the core's internal interface, as one umbrella over its
 * parts: this list says where each part of the core is declared.
 * Nothing includes it: each file includes the parts whose declarations
 * it uses, and tests/layers.sh fails on one that includes green.h or a
 * part it does not use (tools/includes.py).  None of them is installed.
 */
#ifndef GREEN_H
#define GREEN_H

#include "seam.h"       /* the core's libc: musl-seam.h or glibc-seam.h */
#include "gthread.h"    /* the thread descriptor, its states and wait kinds */
#include "section.h"    /* no-preempt sections and their pending work */
#include "gsched.h"     /* block, wake, yield; wait queues; switch; timers */
#include "lifecycle.h"  /* start, exit, keys, registry, robust owners */
#include "tick.h"       /* the tick: time slices and periodic checks */
#include "gsignal.h"    /* signals and 64-bit signal sets */
#include "gfork.h"      /* fork, and each subsystem's reset in the child */
#include "gstack.h"     /* stacks, copied stacks, TLS, quarantine */
#include "addrwait.h"   /* the user-level futex and process-shared words */
#include "ptimer.h"     /* green's own POSIX timers */
#include "cputime.h"    /* CPU time per thread */
#include "report.h"     /* diagnostics */
#include "gconfig.h"    /* the environment, and GREEN_SCHED's schedules */
/* what the core uses of the I/O layer (src/sysio/) */
#include "idlewait.h"   /* the idle wait and the tick's check (poll.c) */
#include "fdwait.h"     /* descriptor waits and descriptor kinds (io.c, fdkind.c) */
#include "ioq.h"        /* the threads waiting on the kernel, for diagnostics */

#endif
