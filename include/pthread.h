/*
 * pthread.h — green's overlay on musl's <pthread.h>.
 *
 * green-cc puts this directory ahead of musl's headers.  Everything POSIX
 * declares comes from musl's header; the non-portable (_np) extensions of
 * green are declared below, in both threads modes (docs/man/).
 */
#include_next <pthread.h>

#ifndef GREEN_PTHREAD_NP_H
#define GREEN_PTHREAD_NP_H

/* __GREEN_THREADS__ (set by green-cc) is 1 in green mode, 0 in 1:1 mode */

/* Stack modes of new threads (docs/man/pthread_attr_setstackmode_np.md).
 * In 1:1 mode the attribute is accepted and every stack is separate. */
#define PTHREAD_STACK_DEFAULT_NP  0   /* the process default: GREEN_STACKS */
#define PTHREAD_STACK_SEPARATE_NP 1   /* a stack of its own, guard page below */
#define PTHREAD_STACK_COPIED_NP   2   /* runs on the shared region; parked, it keeps only its live stack */

#ifdef __cplusplus
extern "C" {
#endif
int pthread_attr_setstackmode_np(pthread_attr_t *, int);
int pthread_attr_getstackmode_np(const pthread_attr_t *, int *);
#ifdef __cplusplus
}
#endif

#endif

/* glibc's rwlock kinds (same values); green's rwlock honours them
 * (docs/sync.md).  glibc's own header (the SPARC overlay) has them. */
#if !defined(GREEN_PTHREAD_RWLOCK_KIND_H) && !defined(__GLIBC__)
#define GREEN_PTHREAD_RWLOCK_KIND_H
enum {
	PTHREAD_RWLOCK_PREFER_READER_NP,
	PTHREAD_RWLOCK_PREFER_WRITER_NP,
	PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP,
	PTHREAD_RWLOCK_DEFAULT_NP = PTHREAD_RWLOCK_PREFER_READER_NP
};
#ifdef __cplusplus
extern "C" {
#endif
int pthread_rwlockattr_setkind_np(pthread_rwlockattr_t *, int);
int pthread_rwlockattr_getkind_np(const pthread_rwlockattr_t *__restrict, int *__restrict);
#ifdef __cplusplus
}
#endif
#endif

/* POSIX 2024 waits on a chosen clock (CLOCK_REALTIME or CLOCK_MONOTONIC),
 * which musl 1.2.3's header lacks; provided in both threads modes. */
#ifndef GREEN_PTHREAD_CLOCK_H
#define GREEN_PTHREAD_CLOCK_H
#ifdef __cplusplus
extern "C" {
#endif
int pthread_cond_clockwait(pthread_cond_t *__restrict, pthread_mutex_t *__restrict,
                           clockid_t, const struct timespec *__restrict);
int pthread_mutex_clocklock(pthread_mutex_t *__restrict, clockid_t,
                            const struct timespec *__restrict);
int pthread_rwlock_clockrdlock(pthread_rwlock_t *__restrict, clockid_t,
                               const struct timespec *__restrict);
int pthread_rwlock_clockwrlock(pthread_rwlock_t *__restrict, clockid_t,
                               const struct timespec *__restrict);
/* glibc's join with a deadline on a chosen clock */
int pthread_clockjoin_np(pthread_t, void **, clockid_t, const struct timespec *);
#ifdef __cplusplus
}
#endif

#endif
