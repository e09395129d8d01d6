/*
 * unistd.h — green's overlay on the libc's <unistd.h>: the options green
 * mode adds to musl's.  Priority-inheritance and priority-ceiling
 * mutexes, robust ones too, are green's own (src/core/sync/mutex.c); the 1:1
 * mode (stock musl) keeps musl's answer: undefined here, -1 from
 * sysconf.  sysconf agrees in both modes (src/members/sysconf.c).
 * _POSIX_PRIORITY_SCHEDULING and _POSIX_PRIORITIZED_IO stay undefined
 * (docs/posix.md).
 */
#include_next <unistd.h>

#if defined(__GREEN_THREADS__) && __GREEN_THREADS__ == 1
#ifndef _POSIX_THREAD_PRIO_PROTECT
#define _POSIX_THREAD_PRIO_PROTECT 200809L
#endif
#ifndef _POSIX_THREAD_PRIO_INHERIT
#define _POSIX_THREAD_PRIO_INHERIT 200809L
#endif
#ifndef _POSIX_THREAD_ROBUST_PRIO_INHERIT
#define _POSIX_THREAD_ROBUST_PRIO_INHERIT 200809L
#endif
#ifndef _POSIX_THREAD_ROBUST_PRIO_PROTECT
#define _POSIX_THREAD_ROBUST_PRIO_PROTECT 200809L
#endif
#ifndef _POSIX_PRIORITY_SCHEDULING
#define _POSIX_PRIORITY_SCHEDULING 200809L
#endif
#ifndef _POSIX_PRIORITIZED_IO
#define _POSIX_PRIORITIZED_IO 200809L
#endif
#endif
