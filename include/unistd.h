/*
 * unistd.h — green's overlay on the libc's <unistd.h>: the options green
 * mode adds to musl's.  Priority-ceiling mutexes (PTHREAD_PRIO_PROTECT)
 * are green's own (src/core/mutex.c); the 1:1 mode (stock musl) refuses
 * them, and so keeps musl's answer: undefined here, -1 from sysconf.
 * sysconf agrees in both modes (src/stubs/sysconf.c).
 */
#include_next <unistd.h>

#if defined(__GREEN_THREADS__) && __GREEN_THREADS__ == 1 && !defined(_POSIX_THREAD_PRIO_PROTECT)
#define _POSIX_THREAD_PRIO_PROTECT 200809L
#endif
