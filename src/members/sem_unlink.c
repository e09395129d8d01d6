/*
 * sem_unlink — the error POSIX names for a semaphore the caller may not
 * remove is EACCES; the kernel's unlink of musl's file in /dev/shm says
 * EPERM when the sticky directory keeps another user's file from us.
 * glibc turns it into EACCES too.  Replaces musl's member in both
 * threads modes.
 */
#include <semaphore.h>
#include <sys/mman.h>
#include <errno.h>

int sem_unlink(const char *name)
{
	int r = shm_unlink(name);
	if (r && errno == EPERM) errno = EACCES;
	return r;
}
