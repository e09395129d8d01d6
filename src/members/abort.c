/*
 * abort.c — raise SIGABRT in the calling thread; if a handler returns,
 * die of SIGABRT anyway.  musl's version signals the TCB's tid, which
 * green binds per green thread; this one signals the kernel thread.
 */
#include <stdlib.h>
#include <signal.h>
#include "signal/gsignal.h"
#include "base/gconfig.h"

_Noreturn void abort(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	unsigned long long all = -1ULL;
	struct green_kset abrt = green_kset(1ULL << (SIGABRT - 1));

	__green_explore_report();   /* under GREEN_SCHED: the seed and decision hash */
	raise(SIGABRT);
	/* a handler returned: the default action, whatever the program set */
	__syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, 0, _NSIG / 8);
	__libc_sigaction(SIGABRT, &dfl, 0);
	__syscall(SYS_tkill, __syscall(SYS_gettid), SIGABRT);
	__syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &abrt, 0, _NSIG / 8);
	for (;;) __syscall(SYS_exit_group, 127);
}
