/*
 * pclose.c — waiting for the command parks only the caller.
 */
#include "base/seam.h"
#include "stdio_impl.h"
#include <errno.h>
#include "green-sys.h"

int pclose(FILE *f)
{
	int status, r;
	pid_t pid = f->pipe_pid;
	fclose(f);
	while ((r=green_sys(SYS_wait4, pid, (long)&status, 0, 0)) == -EINTR);
	if (r<0) return __syscall_ret(r);
	return status;
}
