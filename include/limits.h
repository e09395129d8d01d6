/*
 * limits.h — green's overlay on the libc's <limits.h>: a page-multiple
 * PTHREAD_STACK_MIN.  musl's 2048 is not a multiple of the page size,
 * and programs (test frameworks among them) size and align stacks by it;
 * green uses glibc's 16384 and enforces it in pthread_attr_setstacksize
 * and pthread_attr_setstack, in both threads modes (docs/posix.md).  On
 * glibc (the SPARC overlay) glibc's own value stands.
 */
#include_next <limits.h>

#if !defined(__GLIBC__) && defined(PTHREAD_STACK_MIN)
#undef PTHREAD_STACK_MIN
#define PTHREAD_STACK_MIN 16384
#endif
