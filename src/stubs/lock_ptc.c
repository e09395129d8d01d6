/*
 * lock_ptc.c — musl's lock against concurrent pthread_create (taken by
 * dlopen and pthread_setattr_default_np).
 *
 * In a static program these are no-ops by construction, not by
 * omission: green creates threads inside a no-preempt section on one
 * kernel thread, and nothing else holds creation off.
 *
 * In green's libc.so (GREEN_SHARED) a dlopen lays out the TLS of the
 * object it loads while it holds the lock (musl's load_library grows
 * the module list, then libc.tls_size): a thread created in between
 * would get a TLS block laid out for one size in memory sized for the
 * other.  dlopen can be preempted or wait (a parked thread holding
 * malloc's lock, say) in the middle, so the lock is real, a green
 * rwlock as in musl, which pthread_create takes for reading
 * (create.c).  Its release at the end of a dlopen gives every other
 * thread the TLS the load added (core/stack/dtv.c).
 */
#ifdef GREEN_SHARED
#include <pthread.h>
#include "stack/gstack.h"

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;

void __inhibit_ptc(void)
{
	pthread_rwlock_wrlock(&lock);
}

void __acquire_ptc(void)
{
	pthread_rwlock_rdlock(&lock);
}

void __release_ptc(void)
{
	__green_dtv_install();
	pthread_rwlock_unlock(&lock);
}
#else
void __inhibit_ptc(void) { }
void __acquire_ptc(void) { }
void __release_ptc(void) { }
#endif
