/*
 * green-sys.h — the stubs' door to the blocking-I/O engine (src/sysio/):
 * __syscall_cp's, that of members that bypass it, which make their one
 * blocking system call through the same dispatch (never a cancellation
 * point), or straight to the kernel before threads exist, and that of
 * syscall() (src/members/syscall.c).
 */
#ifndef GREEN_SYS_H
#define GREEN_SYS_H
#include <errno.h>
#include "base/gthread.h"
#include "stack/gstack.h"
#include "../sysio/sysio.h"

static inline long green_sys(long nr, long a, long b, long c, long d)
{
	if (!green_active()) return __syscall(nr, a, b, c, d, 0, 0);
	return __green_sys(nr, a, b, c, d, 0, 0, 0);
}

/* The engine's call with six arguments, threads existing.  A call that
 * fails with EFAULT because an argument points into the stack of a
 * parked copied-stack thread, unmapped while it is parked, is made again
 * once that stack is loaded (copied.c). */
static inline long green_sys_loaded(long nr, const long a[6], int cp)
{
	for (int i = 0;; i++) {
		long r = __green_sys(nr, a[0], a[1], a[2], a[3], a[4], a[5], cp);
		if (r != -EFAULT || i == 3 || !__green_copied_touch(a, 6)) return r;
	}
}
#endif
