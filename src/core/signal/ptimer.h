/*
 * ptimer.h — green's own POSIX timers (posix_timer.c), and the wrapped
 * names of the calls that take a struct timespec.
 */
#ifndef GREEN_PTIMER_H
#define GREEN_PTIMER_H
#include "base/seam.h"

/* ---- timer_create(SIGEV_THREAD): green's own timers (posix_timer.c).
 * Their ids are negative, kernel timers' never; each returns an errno
 * (timer_getoverrun: the count, or -EINVAL). */
struct sigevent;
struct itimerspec;
static inline int green_timer_id(timer_t id) { return (intptr_t)id < 0; }
/* The wrapped names of the calls that take a struct timespec (green-cc's
 * --wrap, tools/mkspecs.sh): on a 32-bit port musl's <time.h> redirects
 * them to their 64-bit-time symbols (_REDIR_TIME64: clock_gettime is
 * __clock_gettime64 in every object, the program's included), so those
 * are the ones wrapped there. */
#if defined(_REDIR_TIME64) && _REDIR_TIME64
#define GREEN_WRAP_T64(plain, t64) __wrap_##t64
#define GREEN_REAL_T64(plain, t64) __real_##t64
#else
#define GREEN_WRAP_T64(plain, t64) __wrap_##plain
#define GREEN_REAL_T64(plain, t64) __real_##plain
#endif
hidden int __green_timer_create(clockid_t, const struct sigevent *, timer_t *);
hidden int __green_timer_delete(timer_t);
hidden int __green_timer_settime(timer_t, int, const struct itimerspec *, struct itimerspec *);
hidden int __green_timer_gettime(timer_t, struct itimerspec *);
hidden int __green_timer_getoverrun(timer_t);

#endif
