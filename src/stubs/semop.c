/*
 * semop.c — waiting on a System V semaphore parks only the caller (the
 * operations are tried with IPC_NOWAIT at growing intervals).
 */
#include <sys/sem.h>
#include "base/seam.h"
#include "green-sys.h"

int semop(int id, struct sembuf *buf, size_t n)
{
#ifdef SYS_semop
	return __syscall_ret(green_sys(SYS_semop, id, (long)buf, n, 0));
#else
	return syscall(SYS_ipc, 1 /* IPCOP_semop */, id, n, 0, buf);
#endif
}
