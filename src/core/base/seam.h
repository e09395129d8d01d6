/*
 * seam.h — the core's libc, chosen once: musl-seam.h in the normal build
 * (green inside musl's libc.a, compiled against musl's internal headers),
 * src/overlay/glibc-seam.h in the glibc overlay (GREEN_OVERLAY; the SPARC
 * port, docs/ports.md), and the CPU port's contract.h.  Every other
 * internal header reaches the libc through this one.
 */
#ifndef GREEN_SEAM_H
#define GREEN_SEAM_H

#include <stdint.h>
#include <stddef.h>
#include <time.h>

struct green_thread;

/* A thread attribute as the core reads it (the seam converts). */
struct green_attr {
	size_t stacksize, guardsize;
	uintptr_t stackaddr;           /* top of a program-supplied stack, or 0 */
	int detached, explicit_sched, policy, prio;
	int stackmode;                 /* PTHREAD_STACK_*_NP */
};

#ifdef GREEN_OVERLAY
#include "glibc-seam.h"
#else
#include "base/musl-seam.h"
#endif
#include "contract.h"

#endif
