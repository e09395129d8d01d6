/* gettid.c — the kernel's thread id.  musl answers from the TCB, whose
 * tid field green binds per green thread for FILE locks; ask the kernel. */
#define _GNU_SOURCE
#include <unistd.h>
#include "syscall.h"

pid_t gettid(void)
{
	return __syscall(SYS_gettid);
}
