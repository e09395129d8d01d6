/*
 * sem_open, sem_close, sem_unlink — named semaphores are not available in
 * the overlay: glibc's sem_open lays the semaphore out for glibc's
 * sem_wait, not green's (src/core/sync/sem.c), and the two cannot share one.
 * They fail with ENOSYS rather than hand out a semaphore green would
 * misread (docs/ports.md).
 */
#include <semaphore.h>
#include <errno.h>

sem_t *sem_open(const char *name, int flags, ...)
{
	(void)name;
	(void)flags;
	errno = ENOSYS;
	return SEM_FAILED;
}

int sem_close(sem_t *s)
{
	(void)s;
	errno = ENOSYS;
	return -1;
}

int sem_unlink(const char *name)
{
	(void)name;
	errno = ENOSYS;
	return -1;
}
