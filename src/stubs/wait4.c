/*
 * wait4.c — wait4 and wait3 (which calls it) park only the caller until
 * the child changes state.
 *
 * The kernel fills its own struct rusage: two timevals of two longs each,
 * then fourteen longs (ru_maxrss .. ru_nivcsw).  The C library's may
 * differ (64-bit time_t in a timeval on 32-bit CPUs), so the kernel
 * writes into a struct of its own layout and the fields are copied over.
 */
#include <sys/wait.h>
#include <sys/resource.h>
#include <string.h>
#include "base/seam.h"
#include "green-sys.h"

struct kernel_rusage {
	long utime[2], stime[2];
	long counts[14];
};

pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru)
{
	struct kernel_rusage k;
	long r = green_sys(SYS_wait4, pid, (long)status, options, ru ? (long)&k : 0);

	if (r > 0 && ru) {
		ru->ru_utime.tv_sec = k.utime[0];
		ru->ru_utime.tv_usec = k.utime[1];
		ru->ru_stime.tv_sec = k.stime[0];
		ru->ru_stime.tv_usec = k.stime[1];
		memcpy(&ru->ru_maxrss, k.counts, sizeof k.counts);
	}
	return __syscall_ret(r);
}
