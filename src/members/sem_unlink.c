/*
 * sem_unlink — the error POSIX names for a semaphore the caller may not
 * remove is EACCES; the kernel's unlink of musl's file in /dev/shm says
 * EPERM when the sticky directory keeps another user's file from us.
 * glibc turns it into EACCES too.  A name that names no semaphore at
 * all ("", "/", "a/b": musl's EINVAL) is ENOENT, as glibc answers: no
 * such semaphore exists (a program that unlinks a name it never set up
 * expects that).  Replaces musl's member in both threads modes.
 */
#include <semaphore.h>
#include <sys/mman.h>
#include <errno.h>

int sem_unlink(const char *name)
{
	int r = shm_unlink(name);
	if (r && errno == EPERM) errno = EACCES;
	else if (r && errno == EINVAL) errno = ENOENT;
	return r;
}
