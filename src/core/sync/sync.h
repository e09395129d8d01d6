/*
 * sync.h — layouts of the synchronisation objects inside the opaque
 * POSIX types.  Every all-zero object is a valid initialised one.
 */
#ifndef GREEN_SYNC_H
#define GREEN_SYNC_H

#include "base/gthread.h"

/* bits of musl's pthread_mutexattr_t.__attr, kept in gmutex.type */
#define GM_ROBUST  4
#define GM_PI      8
#define GM_PROTECT 64          /* PTHREAD_PRIO_PROTECT (green's own bit; musl's attr leaves it free) */
#define GM_PSHARED 128
/* states of a robust mutex, above musl's attribute bits */
#define GM_OWNERDEAD 0x10000      /* its owner exited holding it */
#define GM_NOTRECOVERABLE 0x20000 /* unlocked while inconsistent */
#define GM_TRACKED (GM_ROBUST | GM_PI | GM_PROTECT)   /* on the owner's mheld list */
/* the priority ceiling of a PTHREAD_PRIO_PROTECT mutex, in the attribute
 * word and the mutex's type alike; 0 (never set) stands for 1, the
 * lowest SCHED_FIFO priority, which is what the getters report */
#define GM_CEIL_SHIFT 24
#define GM_CEIL_MASK (127 << GM_CEIL_SHIFT)
static inline int gm_ceiling(unsigned type)
{
	int c = (type & GM_CEIL_MASK) >> GM_CEIL_SHIFT;
	return c ? c : 1;
}

struct gmutex {
	int type;                     /* musl's _m_type slot */
	int count;                    /* recursive depth beyond the first lock */
	volatile uintptr_t lockw;     /* the owner's descriptor, or 0; | GM_WAITERS */
	struct gq q;                  /* waiters, by priority then FIFO */
	struct gmutex *next;          /* owner's mheld list (GM_TRACKED) */
};

/*
 * The lock word.  GM_WAITERS is set by every thread that queues on the
 * mutex and kept by every change of owner while the queue holds anyone,
 * so a plain mutex's uncontended lock (0 -> self) and unlock (self -> 0)
 * are one compare-and-swap each, outside any no-preempt section, and
 * fail to the slow path whenever someone waits (mutex.c).  A descriptor
 * is 64-byte aligned, so bit 0 is free.  Every other change of the word
 * is made inside a no-preempt section.
 */
#define GM_WAITERS ((uintptr_t)1)
static inline struct green_thread *gm_owner(const struct gmutex *g)
{
	return (struct green_thread *)(g->lockw & ~GM_WAITERS);
}
static inline void gm_set_owner(struct gmutex *g, struct green_thread *t)
{
	g->lockw = (uintptr_t)t | (g->q.head ? GM_WAITERS : 0);
}
/* about to queue a thread on g->q */
static inline void gm_queued(struct gmutex *g)
{
	g->lockw |= GM_WAITERS;
}

struct gcond {
	int clock;                    /* clockid for timed waits */
	int shared;
	struct gq q;                  /* waiters; each remembers its mutex in wait_aux */
	volatile int seq;             /* shared waits (cond.c): bumped by every signal */
	volatile int nwait;           /* threads in shared waits, in every process */
	volatile int wseq;            /* the seq the latest shared waiter saw */
	volatile int id;              /* shared waiters' id on the board (board.c) */
};

/* A process-shared mutex (pmutex.c): no pointers, the lock word is the
 * kernel's robust futex word. */
struct gpmutex {
	int type;                     /* as gmutex.type, GM_PSHARED set */
	int count;                    /* recursive depth beyond the first lock */
	volatile int lock;            /* 0, or owner pid | waiters | owner died */
	volatile int owner;           /* the owning green thread's id in its process */
	void *volatile next;          /* the owner process's robust list */
	volatile int id;              /* its waiters' id on the board (board.c) */
};

hidden int __green_mutex_acquire(struct gmutex *, uint64_t deadline, int woken);
hidden void __green_mutex_release(struct gmutex *);
hidden void __green_mutex_own(struct gmutex *, struct green_thread *);
hidden void __green_pi_boost(struct gmutex *, struct green_thread *waiter);
hidden void __green_mutex_reboost(struct green_thread *);
hidden int __green_cond_wait(struct gcond *, struct gmutex *, clockid_t, const struct timespec *);
hidden int __green_cond_signal(struct gcond *, int n);   /* 0 */

hidden int __green_pmutex_lock(struct gpmutex *, clockid_t, const struct timespec *, int try);
hidden int __green_pmutex_unlock(struct gpmutex *);
hidden int __green_pmutex_consistent(struct gpmutex *);
hidden int __green_pmutex_destroy(struct gpmutex *);
hidden int __green_pmutex_owned(struct gpmutex *);
hidden void __green_pmutex_reset(void);
hidden void __green_mutex_owner_died(struct green_thread *); /* robust mutexes of an exiting thread */
hidden void __green_pmutex_owner_died(struct green_thread *); /* ... and its robust shared ones */
extern hidden int __green_pmutex_rl;            /* pmutex.c: the process's robust list is set up */
hidden void __green_pmutex_forget(struct gpmutex *);   /* before pthread_mutex_init */

#endif
