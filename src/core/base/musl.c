/*
 * musl.c — the musl side of the libc seam (musl-seam.h) that is code,
 * and the hooks musl's own members call into the threads library.
 */
#include "base/gthread.h"
#include "stdio_impl.h"

hidden struct pthread *__green_tcb;

/* the pairs green_tls_move moves as one (musl-seam.h) */
#define GREEN_NEIGHBOURS(s, a, b) \
	(offsetof(struct s, b) == offsetof(struct s, a) + sizeof ((struct s *)0)->a)
_Static_assert(GREEN_NEIGHBOURS(pthread, tid, errno_val) &&
               GREEN_NEIGHBOURS(green_thread, tid, errno_val),
               "tid and errno_val are neighbours (green_tls_move)");

/* musl's stdio objects define these when linked; dummies otherwise. */
static FILE *volatile no_file = 0;
weak_alias(no_file, __stdin_used);
weak_alias(no_file, __stdout_used);
weak_alias(no_file, __stderr_used);

static void file_lock_on(FILE *f)
{
	if (f && f->lock < 0) f->lock = 0;
}

/* The first pthread_create: musl goes threaded the way its own
 * pthread_create would make it. */
hidden void green_libc_threads_on(struct green_thread *m)
{
	FILE *f;

	__green_tcb = __pthread_self();
	m->tid = __green_tcb->tid;
	for (f = *__ofl_lock(); f; f = f->next) file_lock_on(f);
	__ofl_unlock();
	file_lock_on(__stdin_used);
	file_lock_on(__stdout_used);
	file_lock_on(__stderr_used);
	libc.threaded = 1;
	libc.need_locks = 1;
}

/*
 * A new thread's own TCB in zeroed memory, as musl's pthread_create makes
 * one for a kernel thread: __copy_tls lays out the static TLS (.tdata
 * copied, .tbss left zero, aligned as the segment asks) and the DTV; the
 * fields musl's own code reads are filled in.  The stack-protector
 * canary is the creator's, so a frame built under one TCB checks out
 * under the other.
 */
hidden void *green_tcb_make(void *mem, struct green_thread *t, void *creator)
{
	struct pthread *td = __copy_tls(mem), *c = creator;
	td->self = td;
	td->next = td->prev = td;   /* musl's thread list (fork walks it): itself alone */
	td->tid = t->tid;
	td->locale = &libc.global_locale;
	td->detach_state = DT_JOINABLE;
	td->robust_list.head = &td->robust_list.head;
	td->canary = c->canary;
	td->sysinfo = c->sysinfo;
	td->stack = (char *)t->stack_lo + t->stack_size;
	td->stack_size = t->stack_size;
	return td;
}

/* A FILE lock at a fork.  One the caller holds stays held, by the
 * caller's id in the child (was, now).  One held by a thread the child
 * does not have (one preempted in the middle of a printf, say) would
 * never be released: the child's first use of that FILE, or exit's
 * flush of every FILE, would wait for good.  Free it, as glibc's fork
 * does; what the owner had half-written stays in the buffer. */
static void file_lock_forked(FILE *f, int was, int now)
{
	if (!f || f->lock <= 0) return;
	if ((f->lock & ~MAYBE_WAITERS) == was) {
		f->lock = now | (f->lock & MAYBE_WAITERS);
		return;
	}
	f->lock = 0;
	f->lockcount = 0;
	f->prev_locked = f->next_locked = 0;
}

/* The child's kernel thread has a new tid, which musl's _Fork has put in
 * the TCB: the caller, the child's one thread, takes it for its id, as
 * the one thread of a new process has its pid for id on Linux
 * (gettid() == getpid()).  The FILE locks it holds follow its id. */
hidden void green_libc_fork_child(struct green_thread *self)
{
	int was = self->tid;
	FILE *f;

	self->tid = __pthread_self()->tid;
	for (f = *__ofl_lock(); f; f = f->next) file_lock_forked(f, was, self->tid);
	__ofl_unlock();
	file_lock_forked(__stdin_used, was, self->tid);
	file_lock_forked(__stdout_used, was, self->tid);
	file_lock_forked(__stderr_used, was, self->tid);
}

/* musl's pthread_cleanup_push/pop macros land here. */
void __do_cleanup_push(struct __ptcb *cb)
{
	struct green_thread *self = __green_cur;
	cb->__next = self->cleanup;
	self->cleanup = cb;
}

void __do_cleanup_pop(struct __ptcb *cb)
{
	__green_cur->cleanup = cb->__next;
}

/* pthread_exit: the newest handler, popped first so that it may exit. */
hidden void green_cleanup_run(struct green_thread *self)
{
	struct __ptcb *cb = self->cleanup;
	self->cleanup = cb->__next;
	cb->__f(cb->__x);
}

#ifdef GREEN_SHARED
/* A DTV of every module with TLS, and a block for each module after
 * the first old_cnt: its .tdata copied, its .tbss left zero, placed as
 * musl's dlopen places a module's block for each of its threads
 * (install_new_tls: congruent to the module's image modulo its
 * alignment, within size + align bytes). */
hidden size_t green_dtv_bytes(size_t old_cnt)
{
	struct tls_module *p;
	size_t i, n = (libc.tls_cnt + 1) * sizeof(uintptr_t);

	for (i = 1, p = libc.tls_head; p; i++, p = p->next)
		if (i > old_cnt) n += p->size + p->align;
	return n;
}

hidden uintptr_t *green_dtv_fill(void *mem, const uintptr_t *old)
{
	uintptr_t *dtv = mem;
	unsigned char *at = (unsigned char *)(dtv + libc.tls_cnt + 1), *b;
	size_t i, old_cnt = old ? old[0] : 0;
	struct tls_module *p;

	for (i = 1, p = libc.tls_head; p; i++, p = p->next) {
		if (i <= old_cnt) {
			dtv[i] = old[i];
			continue;
		}
		b = at + (((uintptr_t)p->image - (uintptr_t)at) & (p->align - 1));
		__builtin_memcpy(b, p->image, p->len);   /* (no <string.h> for this alone) */
		dtv[i] = (uintptr_t)b + DTP_OFFSET;
		at += p->size + p->align;
	}
	dtv[0] = libc.tls_cnt;
	return dtv;
}
#endif

/* Threads are never migrated between kernel threads; nothing to sync. */
hidden void __tl_lock(void) { }
hidden void __tl_unlock(void) { }
hidden void __tl_sync(pthread_t t) { }
