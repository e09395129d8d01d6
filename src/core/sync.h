/*
 * sync.h — layouts of the synchronisation objects inside the opaque
 * POSIX types.  Every all-zero object is a valid initialised one.
 */
#ifndef GREEN_SYNC_H
#define GREEN_SYNC_H

#include "green.h"

/* bits of musl's pthread_mutexattr_t.__attr, kept in gmutex.type */
#define GM_ROBUST  4
#define GM_PI      8
#define GM_PSHARED 128

struct gmutex {
	int type;                     /* musl's _m_type slot */
	int count;                    /* recursive depth beyond the first lock */
	struct green_thread *owner;
	struct gq q;                  /* waiters, FIFO */
};

struct gcond {
	int clock;                    /* clockid for timed waits */
	int shared;
	struct gq q;                  /* waiters; each remembers its mutex in wait_aux */
};

hidden int __green_mutex_acquire(struct gmutex *, uint64_t deadline);
hidden void __green_mutex_release(struct gmutex *);
hidden int __green_cond_wait(struct gcond *, struct gmutex *, const struct timespec *);
hidden void __green_cond_signal(struct gcond *, int n);

#endif
