/*
 * green-sys.h — the stubs' door to the blocking-I/O engine (src/sysio/):
 * __syscall_cp's, and that of members that bypass it, which make their
 * one blocking system call through the same dispatch (never a
 * cancellation point), or straight to the kernel before threads exist.
 */
#ifndef GREEN_SYS_H
#define GREEN_SYS_H
#include "base/gthread.h"
#include "../sysio/sysio.h"

static inline long green_sys(long nr, long a, long b, long c, long d)
{
	if (!green_active()) return __syscall(nr, a, b, c, d, 0, 0);
	return __green_sys(nr, a, b, c, d, 0, 0, 0);
}
#endif
