/*
 * flock.c — waiting for a file lock parks only the caller (the lock is
 * tried with LOCK_NB at growing intervals).
 */
#include <sys/file.h>
#include "base/seam.h"
#include "green-sys.h"

int flock(int fd, int op)
{
	return __syscall_ret(green_sys(SYS_flock, fd, op, 0, 0));
}
