/*
 * lifecycle.h — a thread's life: its start and exit (create.c), the
 * unwinding of pthread_exit (unwind.c), its keys (key.c), what its death
 * does to robust mutexes, the registry of live pthread_t values
 * (registry.c), and posix_spawn's vfork child.
 */
#ifndef GREEN_LIFECYCLE_H
#define GREEN_LIFECYCLE_H
#include "base/gthread.h"
#include "sync/sync.h"

/* ---- threads (create.c, key.c, unwind.c, registry.c) */
hidden void __green_tsd_run_dtors(struct green_thread *);
hidden void __green_thread_frame(struct green_thread *, void *top);  /* create.c: a new thread's first frame */
/* where pthread_exit's unwinding lands: in a thread's start frame
 * (create.c), for the unwinder (unwind.c) */
struct green_landing {
	void *jb[5];                                /* __builtin_setjmp's */
	_Alignas(16) unsigned char exc[64];         /* the unwinder's exception object */
};
hidden _Noreturn void __green_exit_rest(void);  /* create.c: pthread_exit after its unwinding */
hidden void __green_exit_unwind(struct green_thread *);   /* unwind.c: returns if it does not apply */
hidden int __green_can_unwind(void);            /* unwind.c: the program links the C++ unwinder */
hidden void __green_all_remove(struct green_thread *);  /* create.c: green_all_remove out of line */
/* A thread's last per-thread clean-up (key.c), called only when there
 * can be any: it set a key's value, holds a robust or PI mutex, or the
 * process has a robust list (pmutex.c). */
static inline __attribute__((always_inline)) void green_tsd_run_dtors(struct green_thread *t)
{
	if (t->tsd_used || t->mheld || __green_pmutex_rl) __green_tsd_run_dtors(t);
}
hidden struct green_thread *__green_lookup(pthread_t);  /* registry.c */
hidden struct green_thread *__green_registered(pthread_t);  /* the same, inside GREEN_ENTER */
hidden int __green_registry_add(struct green_thread *);
hidden void __green_registry_del(struct green_thread *);
hidden void __green_registry_reset(struct green_thread *self);
hidden int __green_sched_check(int policy, int prio);  /* thread_np.c: 0 or EINVAL */
/* the process's exit, one thread at a time (procexit.c): returns to the
 * thread that runs it, parks any other for good */
hidden void __green_exit_begin(void);
hidden int __green_exit_begun(void);             /* is some thread inside exit()? */

/* ---- thread ids (tid.c): gettid()'s, and what an id given to a call
 * names (1: *t, a live green thread of this process; 0: the kernel's
 * business; -ESRCH) */
extern hidden int __green_tid_next, __green_tid_again;
hidden int __green_tid_new(void);
/* inside GREEN_ENTER: a new thread's id (create.c) */
static inline int green_tid_new(void)
{
	int tid = __green_tid_next;
	if (tid >= GREEN_TID_LAST) return __green_tid_new();   /* wrapped: look */
	__green_tid_next = tid + 1;
	return tid;
}
hidden struct green_thread *__green_by_tid(pid_t); /* inside GREEN_ENTER */
hidden int __green_tid_find(pid_t, struct green_thread **t);
hidden long __green_tid_kernel(pid_t);             /* the id to give the kernel, or -ESRCH */
hidden long __green_tid_signal(pid_t tgid, pid_t tid, int sig, const siginfo_t *si);   /* tgid -1: tkill */

/* Off the list of all threads (__green_all): in line in pthread_join's
 * release (join.c), out of line for the reaping of detached threads. */
static inline void green_all_remove(struct green_thread *t)
{
	if (t->all_prev) t->all_prev->all_next = t->all_next;
	else if (__green_all == t) __green_all = t->all_next;
	if (t->all_next) t->all_next->all_prev = t->all_prev;
	t->all_next = t->all_prev = 0;
}

#endif
