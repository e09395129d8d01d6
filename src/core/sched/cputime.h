/*
 * cputime.h — CPU time per thread (cputime.c).
 */
#ifndef GREEN_CPUTIME_H
#define GREEN_CPUTIME_H
#include "base/gthread.h"
#include "base/words.h"

/* ---- CPU time per thread (cputime.c): off until a program asks */
static inline int green_cpu_on(void) { return __green_switch_kind & GREEN_SWITCH_CPU; }
hidden void __green_cpu_charge(void);           /* charge the running thread up to now */
hidden void __green_cpu_skip(void);             /* the time since the last charge is nobody's */
hidden uint64_t __green_cpu_kernel_ns(void);    /* the kernel thread's CPU time */
hidden clockid_t __green_cpu_clockid(struct green_thread *);
hidden int __green_cpu_clock(clockid_t, uint64_t *ns);

#endif
