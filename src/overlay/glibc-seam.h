/*
 * glibc-seam.h — the core's libc in the glibc overlay.
 *
 * On a CPU musl does not support (SPARC) green is not built into the libc
 * but linked ahead of glibc: the core, the CPU port and public wrappers
 * (this directory) go into libgreen-overlay.a, and the program's calls to
 * pthread_*, the sleeps, the signal calls and so on reach green instead of
 * glibc.  glibc's calls to its own internals do not; docs/ports.md lists
 * what that costs.
 *
 * This header gives the core the names of src/core/base/musl-seam.h (see the
 * list there) in terms of glibc's public interface.  It is compiled with
 * _GNU_SOURCE and GREEN_OVERLAY defined.
 */
#ifndef GREEN_GLIBC_SEAM_H
#define GREEN_GLIBC_SEAM_H

#include <pthread.h>
#include <signal.h>
#include <errno.h>
#include <netdb.h>
#include <locale.h>
#include <limits.h>
#include <unistd.h>
#include <sys/syscall.h>

#define hidden __attribute__((__visibility__("hidden")))
#define weak_alias(old, new) \
	extern __typeof(old) new __attribute__((__weak__, __alias__(#old)))

/* a raw system call: the result, or -errno; errno is left alone */
hidden long __green_syscall(long, long, long, long, long, long, long);
#define GREEN_SC6(n, a, b, c, d, e, f, ...) \
	__green_syscall(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))
#define __syscall(...) GREEN_SC6(__VA_ARGS__, 0, 0, 0, 0, 0, 0, 0)
#define __syscall_cp __syscall
#define syscall_cp syscall

static inline long __syscall_ret(long r)
{
	if (r < 0 && r > -4096) {
		errno = -r;
		return -1;
	}
	return r;
}

/* glibc's exported name for its own sigaction, which green's public
 * sigaction (sigaction.c here) does not replace */
extern int __sigaction(int, const struct sigaction *, struct sigaction *);
#define __libc_sigaction __sigaction

/* signals 32 and 33: glibc's SIGCANCEL and SIGSETXID */
#define GREEN_LIBC_SIGS (1ULL << 31 | 1ULL << 32)

static inline size_t green_page_size(void)
{
	static size_t p;
	if (!p) p = sysconf(_SC_PAGESIZE);
	return p;
}
#define GREEN_PAGE_SIZE     green_page_size()
#define GREEN_GUARD_DEFAULT GREEN_PAGE_SIZE
#define GREEN_C11_ATTR      ((const pthread_attr_t *)(uintptr_t)-1)

/* errno, h_errno and the locale live in glibc's TLS of the one kernel
 * thread; the FILE-lock owner and flockfile list have no equivalent
 * (flockfile does not exclude one green thread from another here). */
#define green_tls_save(t) do { \
	(t)->errno_val = errno; \
	(t)->libc.h_errno_val = h_errno; \
	(t)->locale = uselocale((locale_t)0); \
} while (0)

#define green_tls_load(t) do { \
	errno = (t)->errno_val; \
	h_errno = (t)->libc.h_errno_val; \
	uselocale((t)->locale); \
} while (0)

#define green_libc_new_thread(t) ((t)->locale = LC_GLOBAL_LOCALE)

/* glibc's TCB (%g7) and static TLS cannot be made per green thread without
 * writing into glibc's private state: a program with a TLS segment of its
 * own is refused (glibc.c); one without shares glibc's one TCB. */
hidden size_t green_tls_bytes(int *err);
#define green_tcb_self() ((void *)0)
#define green_tp_of(tcb) ((void *)0)
#define green_tcb_make(mem, t, creator) ((void *)0)
#define green_libc_fork_child(t) ((void)(t))
/* glibc keeps its dlerror state itself */
#define green_libc_thread_end() ((void)0)
/* musl's internal name of the clock (the public one is wrapped there:
 * cputime.c); glibc's public one is the libc's own here */
#define __clock_gettime clock_gettime
#define green_self_tid() ((int)__green_cur->id)

extern void *__libc_stack_end;
extern char *__progname;        /* the name a new thread inherits */
#define green_initial_stack_addr() (__libc_stack_end)

/* the core's own entry points that musl's headers would declare */
_Noreturn void __pthread_exit(void *);
int __pthread_create(pthread_t *restrict, const pthread_attr_t *restrict,
                     void *(*)(void *), void *restrict);
int __pthread_join(pthread_t, void **);
int __pthread_mutex_lock(pthread_mutex_t *);
int __pthread_mutex_trylock(pthread_mutex_t *);
int __pthread_mutex_timedlock(pthread_mutex_t *restrict, const struct timespec *restrict);
int __pthread_mutex_unlock(pthread_mutex_t *);
int __pthread_setcancelstate(int, int *);
int __pthread_once(pthread_once_t *, void (*)(void));
int __pthread_key_create(pthread_key_t *, void (*)(void *));
int __pthread_key_delete(pthread_key_t);

/* glibc.c */
hidden void green_libc_threads_on(struct green_thread *main);
hidden int __green_pc_ours(unsigned long pc);
#define green_preempt_ok(uc) __green_pc_ours(GREEN_ARCH_UC_PC(uc))
hidden void green_attr_read(const pthread_attr_t *, struct green_attr *);
hidden int green_attr_fill(pthread_attr_t *, const struct green_attr *);
hidden void green_attr_set_stackmode(pthread_attr_t *, int);
hidden int green_attr_stackmode(const pthread_attr_t *);
hidden unsigned green_mutexattr_bits(const pthread_mutexattr_t *);
hidden int green_condattr_read(const pthread_condattr_t *, int *clock);
hidden int green_rwlockattr_shared(const pthread_rwlockattr_t *);
hidden int green_rwlockattr_kind(const pthread_rwlockattr_t *);
hidden int green_barrierattr_shared(const pthread_barrierattr_t *);

/* cleanup.c */
hidden void green_cleanup_run(struct green_thread *self);

#endif
