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

#endif
