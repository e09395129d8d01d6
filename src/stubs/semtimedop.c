/*
 * semtimedop.c — as semop, with the timeout kept by green's timer.
 */
#include <sys/sem.h>
#include "base/seam.h"
#include "green-sys.h"

int semtimedop(int id, struct sembuf *buf, size_t n, const struct timespec *ts)
{
#ifdef SYS_semtimedop
	return __syscall_ret(green_sys(SYS_semtimedop, id, (long)buf, n, (long)ts));
#else
	return syscall(SYS_ipc, 4 /* IPCOP_semtimedop */, id, n, 0, buf, ts);
#endif
}
