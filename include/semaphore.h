/*
 * semaphore.h — green's overlay on musl's <semaphore.h>: sem_clockwait
 * (POSIX 2024), which musl 1.2.3 lacks; provided in both threads modes.
 */
#include_next <semaphore.h>

#ifndef GREEN_SEMAPHORE_H
#define GREEN_SEMAPHORE_H
#include <time.h>
#ifdef __cplusplus
extern "C" {
#endif
int sem_clockwait(sem_t *__restrict, clockid_t, const struct timespec *__restrict);
#ifdef __cplusplus
}
#endif
#endif
