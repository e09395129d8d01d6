/*
 * addrwait.h — waits on addresses: a user-level futex (futex.c), and
 * waits on words of process-shared objects (pshared.c).
 */
#ifndef GREEN_ADDRWAIT_H
#define GREEN_ADDRWAIT_H
#include "base/gthread.h"

/* ---- address waits: a user-level futex (futex.c) */
hidden int __green_futex_wait(const volatile void *addr, int val, uint64_t deadline, enum gwait kind);
hidden int __green_futex_wake(const volatile void *addr, int n);
hidden int __green_futex_wake_bits(const volatile void *addr, int n, unsigned bits);
hidden int __green_futex_requeue(const volatile void *from, const volatile void *to, int nwake, int nmove);
hidden void __green_word_lock(volatile int *w, int me, int flag);
hidden void __green_word_unlock(volatile int *w, int flag);

/* ---- waits on words of process-shared objects (pshared.c)
 * __green_pshared_wait parks (outside any critical section) while
 * *w == val, until woken, the deadline or a re-check (step: the caller's
 * back-off state, 0 at first): 0 (look again), ETIMEDOUT, EINTR,
 * ECANCELED.  __green_pshared_wake wakes n of this process's waiters,
 * and, if fewer and `others`, asks the kernel for the rest.
 * __green_pshared_idle is the scheduler's idle wait while threads wait
 * on shared words and none on descriptors (poll.c). */
hidden int __green_pshared_wait(volatile int *w, int val, uint64_t deadline,
                                enum gwait kind, const void *obj, unsigned *step);
hidden void __green_pshared_wake(volatile int *w, int n, int others);
hidden int __green_pshared_wake_bits(const volatile void *w, int n, unsigned bits);   /* here only */
hidden int __green_pshared_waiting(void);
hidden int __green_pshared_idle(uint64_t deadline, const uint64_t *mask);  /* mask: as __green_poll_wait's */
hidden void __green_pshared_reset(void);          /* in a forked child */
hidden void __green_futex_reset(void);           /* futex.c: in a forked child */

/* ---- the program's own futex calls (kfutex.c): syscall(SYS_futex, ...)
 * (SYS_futex_time64 with legacy 0) and syscall(SYS_futex_waitv, ...),
 * answered as the kernel would, with green waits: a result or -errno */
hidden long __green_futex_call(volatile void *uaddr, int op, uint32_t val, const void *timeout,
                               volatile void *uaddr2, uint32_t val3, int legacy);
hidden long __green_futex_waitv(const void *waiters, unsigned n, unsigned flags,
                                const void *timeout, long clockid);
hidden int __green_futex_waitv_wake(const volatile void *w, int n);
hidden void __green_futex_waitv_reset(void);    /* in a forked child */
hidden int __green_pshared_pid(void);

#endif
