/*
 * mempoints.h — scheduling points at accesses to shared memory
 * (`green-cc --sched-points=memory`, docs/scheduler.md).
 *
 * The program is compiled with GCC's -fsanitize=thread instrumentation,
 * which calls an entry point before every load and store (tsan.c) and
 * turns every atomic operation into a call (atomic_points.c).  This library, not
 * a sanitizer runtime, answers those calls: it is linked into a program
 * only in this mode, and it is compiled without the instrumentation.
 * Outside GREEN_SCHED an access costs a call, a load and a branch.
 */
#ifndef GREEN_MEMPOINTS_H
#define GREEN_MEMPOINTS_H
#include "base/words.h"

hidden void __green_mp_touch(const volatile void *addr, int poll);   /* shared.c */
extern hidden int __green_mp_accessed;   /* explore.c: a block point follows no access */

/* An access of the program: under GREEN_SCHED, a scheduling point when
 * the memory is shared between threads.  poll: the access changes
 * nothing another thread could see (a load, a compare-and-swap that
 * failed, an exchange that wrote what was there) — a thread that only
 * polls shared memory for long is spinning (shared.c). */
static inline void green_mp_access(const volatile void *addr, int poll)
{
	if (__green_xmode) {
		__green_mp_accessed = 1;
		__green_mp_touch(addr, poll);
	}
}
#endif
