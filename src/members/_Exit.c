/*
 * _Exit — _exit and _Exit end the process without exit's handlers, and
 * so without the destructor that prints the schedule line under
 * GREEN_SCHED (src/core/sched/explore.c): print it here, unless exit already
 * did or this is posix_spawn's vfork child, which runs on its parent's
 * memory until it execs or gives up.  Otherwise musl's two calls.
 */
#include <stdlib.h>
#include "base/gconfig.h"

_Noreturn void _Exit(int ec)
{
	if (__green_xmode && !green_vfork_child()) __green_explore_report();
	__syscall(SYS_exit_group, ec);
	for (;;) __syscall(SYS_exit, ec);
}
