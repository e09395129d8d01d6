/* raise.c — signal the calling thread.  musl's version signals the TCB's
 * tid, which green binds per green thread; signal the kernel thread. */
#include <signal.h>
#include "syscall.h"

int raise(int sig)
{
	return syscall(SYS_tkill, __syscall(SYS_gettid), sig);
}
