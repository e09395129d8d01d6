/*
 * rwlockattr_kind.c — glibc's pthread_rwlockattr_setkind_np and
 * getkind_np, which musl 1.2.3 lacks.  The kind is kept, plus one, in
 * the spare word of musl's pthread_rwlockattr_t, so a fresh attribute
 * (all zero) has none and gives a lock green's default policy; getkind
 * reports PTHREAD_RWLOCK_DEFAULT_NP for it, as glibc does.  Green's
 * rwlock (rwlock.c) honours the kind; in 1:1 mode it is kept and
 * reported, and musl's rwlock lets readers in whenever no writer holds
 * the lock (docs/sync.md).  Linked into both library trees.
 */
#include <pthread.h>
#include <errno.h>

int pthread_rwlockattr_setkind_np(pthread_rwlockattr_t *a, int kind)
{
	switch (kind) {
	case PTHREAD_RWLOCK_PREFER_READER_NP:
	case PTHREAD_RWLOCK_PREFER_WRITER_NP:
	case PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP:
		a->__attr[1] = kind + 1;
		return 0;
	default:
		return EINVAL;
	}
}

int pthread_rwlockattr_getkind_np(const pthread_rwlockattr_t *restrict a, int *restrict kind)
{
	*kind = a->__attr[1] ? (int)a->__attr[1] - 1 : PTHREAD_RWLOCK_DEFAULT_NP;
	return 0;
}
