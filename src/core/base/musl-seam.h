/*
 * musl-seam.h — the core's libc, in the normal build.
 *
 * green's objects replace members of musl's libc.a and are compiled
 * against musl's internal headers, so they may read musl's one thread
 * control block, its `libc` flags and the fields of its opaque types.
 * The glibc overlay (src/overlay/glibc-seam.h) gives the same names in
 * terms of glibc's public interface; docs/ports.md says what that loses.
 *
 * What the core may use, from either side:
 *
 *   hidden, weak_alias         linkage of internal and aliased symbols
 *   __syscall(nr, ...)         a raw system call: the result or -errno
 *   __libc_sigaction(s,n,o)    the kernel's disposition, bypassing green
 *   GREEN_LIBC_SIGS            signals the libc keeps for itself
 *   GREEN_PAGE_SIZE, GREEN_GUARD_DEFAULT
 *   green_tls_save(t), green_tls_load(t)
 *                              the libc's per-thread state, bound
 *                              shallowly on every switch while threads
 *                              share one TCB (switch.c, tls.c)
 *   green_tls_bytes(&err)      the memory a thread's own TCB and static
 *                              TLS take, 0 to share one TCB (tls.c)
 *   green_tcb_self(), green_tp_of(tcb), green_tcb_make(mem, t, creator)
 *                              the running TCB, the thread pointer that
 *                              addresses a TCB, a new thread's TCB
 *   green_libc_threads_on(m)   the libc turns multi-threaded (create.c)
 *   green_libc_new_thread(t)   a new thread's initial libc state
 *   green_libc_fork_child(t)   fix-ups in a fork child (fork.c)
 *   green_libc_thread_end()    the ending thread's libc state freed
 *                              (create.c: its dlerror message)
 *   green_self_tid()           the running thread's lock-owner id
 *   green_attr_read(a, ga), green_attr_fill(a, ga)
 *                              pthread_attr_t <-> struct green_attr
 *   green_attr_set_stackmode(a, m), green_attr_stackmode(a)
 *   green_mutexattr_bits(a)    GM_* bits (sync.h) of a mutex attribute
 *   green_condattr_read(a, &clock), green_rwlockattr_shared(a),
 *   green_rwlockattr_kind(a)
 *   green_barrierattr_shared(a)
 *   green_cleanup_run(t)       pop the newest cleanup handler and run it
 *   green_initial_stack_addr() an address inside the initial stack
 *   GREEN_C11_ATTR             pthread_create's marker for thrd_create
 *   green_preempt_ok(uc)       may a tick switch away from the interrupted
 *                              code (it holds none of the libc's own locks)?
 */
#ifndef GREEN_MUSL_SEAM_H
#define GREEN_MUSL_SEAM_H

#include "pthread_impl.h"

/* signals 32-34: cancellation, set*id broadcast, timers (musl's SIGCANCEL,
 * SIGSYNCCALL, SIGTIMER) */
#define GREEN_LIBC_SIGS (1ULL << 31 | 1ULL << 32 | 1ULL << 33)

#define GREEN_PAGE_SIZE     PAGE_SIZE
#define GREEN_GUARD_DEFAULT __default_guardsize
#define GREEN_C11_ATTR      __ATTRP_C11_THREAD

/* musl's own kernel-level sigaction.  musl defines it in the member
 * src/signal/sigaction, which green replaces: src/members/sigaction.c
 * defines it again, translated to and from the kernel's structure as
 * musl does, beside the public sigaction that routes through green once
 * threads exist.  So this one core dependency on a stub is the seam's:
 * the glibc overlay maps the name to glibc's __sigaction instead. */
hidden int __libc_sigaction(int, const struct sigaction *, struct sigaction *);

/* musl's one TCB, cached when threads start: the shared-TCB binding
 * below reads it on every switch. */
extern hidden struct pthread *__green_tcb;

/*
 * The per-thread fields of musl's TCB that green binds shallowly while
 * every thread runs on the initial thread's TCB (tls.c):
 *   errno_val    errno
 *   tid          owner id of FILE locks: __lockfile and the inline
 *                getc/putc fast paths compare it with the lock word
 *   locale       uselocale(), and the wide-character stdio calls, which
 *                install the stream's locale for the call's duration
 * The code that reads them is inline all over the libc, so the TCB must
 * hold the running thread's values.  The other per-thread fields live
 * in the green thread's descriptor instead, as the only members that
 * reach them are green's: h_errno (members/h_errno.c), the flockfile
 * list (members/ftrylockfile.c), the dlerror message
 * (members/dlerror.c).  The rest of musl's struct pthread is read only
 * by members green replaces (cancellation, TSD, join, robust lists,
 * timers).  tid and errno_val are neighbours in musl's struct pthread
 * and in green's descriptor: the pair moves by one __builtin_memcpy,
 * which the compiler makes one load and one store (the library is built
 * -ffreestanding, where memcpy is a call) (musl.c asserts the layouts).
 */
#define green_tls_move(dst, src) do { \
	__builtin_memcpy(&(dst)->tid, &(src)->tid, 2 * sizeof(int)); \
	(dst)->locale = (src)->locale; \
} while (0)
#define green_tls_save(t) do { \
	struct pthread *tcb_ = __green_tcb; \
	green_tls_move(t, tcb_); \
} while (0)
#define green_tls_load(t) do { \
	struct pthread *tcb_ = __green_tcb; \
	green_tls_move(tcb_, t); \
} while (0)

/* A TCB of its own per thread when the program has a TLS segment (in a
 * static musl program libc.tls_cnt counts the executable's, 0 or 1):
 * libc.tls_size bytes hold the TCB, the static TLS block, the DTV and
 * the alignment slack, as in musl's pthread_create. */
static inline size_t green_tls_bytes(int *err)
{
	(void)err;
	return libc.tls_cnt ? (libc.tls_size + 15) & -(size_t)16 : 0;
}
#define green_tcb_self() ((void *)__pthread_self())
#define green_tp_of(tcb) ((void *)TP_ADJ((struct pthread *)(tcb)))
hidden void *green_tcb_make(void *mem, struct green_thread *t, void *creator);

#ifdef GREEN_SHARED
/* The TLS of objects loaded at run time (stack/dtv.c), green's libc.so
 * only.  musl numbers the modules with TLS 1, 2, ... in the order of
 * libc.tls_head; a thread's DTV holds their count, then the address of
 * each module's block for the thread.
 *   green_tls_modules()        how many modules have TLS now
 *   green_tcb_dtv(tcb)         where a TCB keeps its DTV
 *   green_dtv_bytes(old_cnt)   the memory of a DTV of every module and
 *                              of the blocks of those after the first
 *                              old_cnt
 *   green_dtv_fill(mem, old)   that DTV and those blocks, laid out in
 *                              zeroed mem; old's blocks kept (0: none)
 *   green_tcb_dtv_move(from, to)  the shared TCB's DTV bound shallowly:
 *                              saved in from, loaded from to (switch.c) */
#define green_tls_modules() (libc.tls_cnt)
#define green_tcb_dtv(tcb) (&((struct pthread *)(tcb))->dtv)
hidden size_t green_dtv_bytes(size_t old_cnt);
hidden uintptr_t *green_dtv_fill(void *mem, const uintptr_t *old);
#define green_tcb_dtv_move(from, to) do { \
	struct pthread *tcb_ = __green_tcb; \
	(from)->dtv = tcb_->dtv; \
	tcb_->dtv = (to)->dtv; \
} while (0)
#endif

/* need_locks again: a fork child may have dropped back to 0 */
#define green_libc_new_thread(t) ((t)->locale = &libc.global_locale, libc.need_locks = 1)
#define green_self_tid() (__pthread_self()->tid)
#define green_initial_stack_addr() ((void *)libc.auxv)
/* musl's locks are green's (src/stubs): any pc may be preempted */
#define green_preempt_ok(uc) 1

/* members/dlerror.c */
#define green_libc_thread_end() __dl_thread_cleanup()

/* musl.c */
hidden void green_libc_threads_on(struct green_thread *main);
hidden void green_libc_fork_child(struct green_thread *self);
hidden void green_cleanup_run(struct green_thread *self);

/* the stack-mode attribute (pthread_attr_setstackmode_np), in a spare
 * slot of musl's pthread_attr_t */
#define _a_stackmode __u.__i[3*__SU+4]

static inline void green_attr_read(const pthread_attr_t *a, struct green_attr *g)
{
	g->stacksize = a->_a_stacksize;
	g->guardsize = a->_a_guardsize;
	g->stackaddr = a->_a_stackaddr;
	g->detached = a->_a_detach == PTHREAD_CREATE_DETACHED;
	g->explicit_sched = a->_a_sched;
	g->policy = a->_a_policy;
	g->prio = a->_a_prio;
	g->stackmode = a->_a_stackmode;
}

static inline int green_attr_fill(pthread_attr_t *a, const struct green_attr *g)
{
	*a = (pthread_attr_t){ 0 };
	a->_a_stacksize = g->stacksize;
	a->_a_guardsize = g->guardsize;
	a->_a_stackaddr = g->stackaddr;
	a->_a_detach = g->detached ? PTHREAD_CREATE_DETACHED : PTHREAD_CREATE_JOINABLE;
	a->_a_policy = g->policy;
	a->_a_prio = g->prio;
	return 0;
}

static inline void green_attr_set_stackmode(pthread_attr_t *a, int mode) { a->_a_stackmode = mode; }
static inline int green_attr_stackmode(const pthread_attr_t *a) { return a->_a_stackmode; }

/* musl keeps the GM_* bits themselves in pthread_mutexattr_t */
static inline unsigned green_mutexattr_bits(const pthread_mutexattr_t *a) { return a->__attr; }

/* the clock, and whether process-shared (bit 31) */
static inline int green_condattr_read(const pthread_condattr_t *a, int *clock)
{
	*clock = a->__attr & 0x7fffffff;
	return a->__attr >> 31;
}

static inline int green_rwlockattr_shared(const pthread_rwlockattr_t *a) { return a->__attr[0]; }
/* the kind (rwlockattr_kind.c): PTHREAD_RWLOCK_*_NP + 1, 0 when never set */
static inline int green_rwlockattr_kind(const pthread_rwlockattr_t *a) { return a->__attr[1]; }
static inline int green_barrierattr_shared(const pthread_barrierattr_t *a) { return a->__attr; }

#endif
