/*
 * create.c — creation, start, exit and the library's lazy start-up.
 *
 * Start-up.  Nothing happens until the program creates its second
 * thread: a program that never does pays nothing (no timer, no handler,
 * no system call).  The crt0 hook (__green_start, reached from crt/entry.h
 * through a weak reference, so only when this module is linked) runs
 * after musl has set up TLS and the constructors have run; it only reads
 * the environment.  The first pthread_create — possibly from a
 * constructor, before the hook — calls __green_init, which switches the
 * libc into threaded mode (green_libc_threads_on: in musl, the way musl's
 * own pthread_create does, libc.threaded and libc.need_locks set and FILE
 * locks turned on, while libc.threads_minus_1 stays 0 because there is
 * still one kernel thread).
 */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>
#include "record/record.h"
#include "base/gthread.h"
#include "fdwait.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "thread/lifecycle.h"
#include "signal/gsignal.h"
#include "stack/gstack.h"
#include "base/gconfig.h"
#include "sched/runq.h"

hidden int __green_pid;
#ifndef GREEN_OVERLAY
/*
 * musl's fork() calls __fork_handler, which its own fork.c defines as a
 * weak no-op; green's real one (the child forgets every other thread and
 * resets process-shared state) is in atfork.c beside pthread_atfork, and
 * a static link would pull that member in only for a program that calls
 * pthread_atfork.  Every program that creates a thread links this file,
 * so this reference brings it in: its strong __fork_handler then wins.
 */
#include <pthread.h>
static int (*const keep_atfork)(void (*)(void), void (*)(void), void (*)(void))
	__attribute__((used)) = pthread_atfork;
#endif

static int refused;               /* the libc seam cannot run threads here */
static int unwinds;               /* the program can unwind C++ frames (unwind.c) */
static unsigned next_id = 1;

/* GREEN_SLOW_RECORD when the run is recorded or replayed: its threads'
 * calls take the paths that reach the recorder (gthread.h) */
static inline unsigned char green_slow_recorded(void)
{
	return __green_rmode ? GREEN_SLOW_RECORD : 0;
}

static void all_add(struct green_thread *t)
{
	t->all_prev = 0;
	t->all_next = __green_all;
	if (__green_all) __green_all->all_prev = t;
	__green_all = t;
}

/* the out-of-line copy of green_all_remove (lifecycle.h) */
hidden void __green_all_remove(struct green_thread *t)
{
	green_all_remove(t);
}

/*
 * Threads start.  The order matters:
 *   - configuration first: every later step reads it;
 *   - the libc's thread machinery on, then the TLS image: a refusal is
 *     remembered and reported by the first pthread_create;
 *   - the signal state becomes virtual (deliver.c reads the kernel's
 *     dispositions and mask through __libc_sigaction and raw calls);
 *   - the guard-page handler is installed with __libc_sigaction, the
 *     kernel's call, so it does not depend on __green_started;
 *   - __green_started last: from then on the stubs route through green
 *     (sigaction, the blocking calls), which needs all of the above.
 */
hidden void __green_init(void)
{
	if (__green_started) return;
	__green_config_load();
	__green_pid = __syscall(SYS_getpid);
	green_libc_threads_on(&__green_main);
	refused = __green_tls_init();
	unwinds = __green_can_unwind();
	__green_sig_init();
	__green_guard_init();
	if (__green_config.debug & GREEN_DEBUG_CHECKS) __green_switch_kind |= GREEN_SWITCH_CHECK;
	__green_started = 1;
	__green_main.io_slow = (__green_main.io_slow & ~GREEN_SLOW_UNSTARTED) | green_slow_recorded();
}

/* The crt0 hook (crt/entry.h), called before main.  Not hidden: in a
 * dynamic link the program's start-up object finds it in libc.so. */
void __green_start(void)
{
	__green_config_load();
	__green_rec_start();   /* GREEN_RECORDING: normally done already, by a constructor */
}

/*
 * A new thread's first code.  The switch into it ran with the new
 * thread's no-preempt depth, 1 (set at creation), like any switch, which
 * runs inside its caller's section: a tick in the middle of it (while it
 * loads a copied stack, say) must only record that it came.  The section ends here, as the yield that a preempted thread
 * resumes in ends its own; not with GREEN_LEAVE, which under GREEN_SCHED
 * would add a scheduling point.
 */
static inline __attribute__((always_inline)) _Noreturn void run(struct green_thread *self)
{
	if (self->cancel_pending) __green_cancel_async(self);
	if (self->c11) {
		int (*f)(void *) = (int (*)(void *))(void *)self->start;
		__pthread_exit((void *)(intptr_t)f(self->arg));
	}
	void *r = self->start(self->arg);
	self->unwind = 0;   /* returned: no frame of its own left to unwind */
	__pthread_exit(r);
}

/* In a program that can unwind C++ frames, the thread runs from a frame
 * that pthread_exit's unwinding lands in (unwind.c).  Only there: the
 * landing record is ~100 bytes of live stack, which a copied stack
 * would copy at every switch. */
static __attribute__((noinline)) _Noreturn void run_landing(struct green_thread *self)
{
	struct green_landing landing;
	self->unwind = &landing;
	if (__builtin_setjmp(landing.jb)) __green_exit_rest();
	run(self);
}

/* A new thread's first code, entered by the first switch to it. */
static void __green_thread_start(void *arg)
{
	struct green_thread *self = arg;
	__green_arch_fp_set(&self->fp);
	green_section_end(__green_preempt_now);   /* and stacks to reap: GREEN_PEND_REAP */
	green_sig_check(self);
	if (unwinds) run_landing(self);
	run(self);
}

/*
 * A new thread's first frame, at the top of the stack it will run on:
 * the first switch to t->sp enters __green_thread_start(t).  The one
 * place a thread's first frame is made, for both kinds of stack: a
 * separate stack's at creation (__pthread_create, below), a copied
 * thread's when it is first loaded into its slot (copied.c's load), as
 * the slot is not mapped for it before.
 */
hidden void __green_thread_frame(struct green_thread *t, void *top)
{
	t->started = 1;
	t->sp = __green_arch_make(top, __green_thread_start, t);
}

static inline __attribute__((always_inline)) int create(pthread_t *restrict res,
	const pthread_attr_t *restrict attrp, void *(*fn)(void *), void *restrict arg)
{
	struct green_thread *t, *self;
	struct green_attr attr = { 0 };
	int c11 = attrp == GREEN_C11_ATTR, err = 0, mode;
	size_t size, guard;

	if (!fn) return EINVAL;
	__green_init();
	if (refused) return refused;
	/* an attribute's size, else GREEN_STACK_SIZE, else (0 here) the
	 * default: a copied thread's slot, or a separate stack's default
	 * (__green_stack_alloc) */
	size = __green_config.stack_size;
	guard = GREEN_GUARD_DEFAULT;
	mode = __green_config.stack_mode;
	if (attrp && !c11) {
		green_attr_read(attrp, &attr);
		if (attr.stacksize) size = attr.stacksize;
		guard = attr.guardsize;
		/* the attribute's mode, else separate for a stack the program
		 * gives, else the process default (GREEN_STACKS) */
		if (attr.stackmode) mode = attr.stackmode - 1;
		else if (attr.stackaddr) mode = GREEN_STACK_SEPARATE;
		if (mode == GREEN_STACK_COPIED && attr.stackaddr) return EINVAL;
	}
	/* a stack deeper than the copied region, asked for where copied is
	 * only the default: a separate stack of that size (docs/stacks.md) */
	if (mode == GREEN_STACK_COPIED && !attr.stackmode && size > __green_copied_room())
		mode = GREEN_STACK_SEPARATE;
	/* the attribute takes a policy and a priority in either order */
	if (attr.explicit_sched && (err = __green_sched_check(attr.policy, attr.prio))) return err;

	GREEN_ENTER();
	if (mode == GREEN_STACK_COPIED) {
		t = __green_copied_alloc(size, &err);
	} else if (attr.stackaddr) {
		t = __green_stack_adopt((char *)attr.stackaddr - size, size, &err);
	} else {
		t = __green_stack_alloc(size, guard, &err);
	}
	if (!t) {
		GREEN_LEAVE();
		return err;
	}
	if ((err = __green_registry_add(t))) {
		__green_stack_free(t);
		GREEN_LEAVE();
		return err;
	}
	self = __green_cur;
	t->stack_asked = size;
	t->magic = GREEN_MAGIC;
	t->id = ++next_id;
	t->tid = green_tid_new();
	green_tls_make(t, t->tcb, self);
#ifdef GREEN_SHARED
	if ((err = __green_dtv_new(t))) {   /* a loaded object's TLS (dtv.c) */
		__green_registry_del(t);
		__green_stack_free(t);
		GREEN_LEAVE();
		return err;
	}
#endif
	__green_arch_fp_get(&t->fp);   /* POSIX: the creator's floating-point environment */
	t->start = fn;
	t->arg = arg;
	t->c11 = c11;
	t->np = 1;   /* the switch that first runs it is a section; it ends in thread_start */
	t->io_slow = green_slow_recorded();
	t->io_node.linked = t->io_node.waiting = 0;   /* on no descriptor's list (src/sysio/io.h) */
	t->detached = attr.detached;
	t->sigmask = self->sigmask;   /* POSIX: the creator's mask; nothing pending */
	if (attr.explicit_sched) {
		t->policy = attr.policy;
		t->prio = attr.prio;
		green_relevel(t);
	} else {
		t->policy = self->policy;
		t->prio = self->prio;
		/* the creator's level is that of this policy and priority
		 * (runq.h) unless priority inheritance lent it one */
		if (self->boost) green_relevel(t);
		else t->level = self->level;
	}
	if (t->stack_mode == GREEN_STACK_SEPARATE)
		__green_thread_frame(t, (char *)t->stack_lo + t->stack_size);
	/* a copied thread's is made when it is first loaded (copied.c) */
	all_add(t);
	__green_live++;
	runq_ready(t, 0);   /* in line: runq.h */
	*res = gp(t);
	GREEN_LEAVE();
	return 0;
}

int __pthread_create(pthread_t *restrict res, const pthread_attr_t *restrict attrp,
                     void *(*fn)(void *), void *restrict arg)
{
#ifdef GREEN_SHARED
	/* not while a dlopen lays out TLS (stack/dtv.c), as in musl */
	int err;
	__acquire_ptc();
	err = create(res, attrp, fn, arg);
	__release_ptc();
	return err;
#else
	return create(res, attrp, fn, arg);
#endif
}

/* The rest of the exit: the cleanup handlers not yet run, the
 * thread-specific data's destructors, the libc's state, and the switch
 * away for good. */
static inline __attribute__((always_inline)) _Noreturn void exit_rest(struct green_thread *self)
{
	self->unwind = 0;
	while (self->cleanup) green_cleanup_run(self);   /* may not return (seam) */
	green_tsd_run_dtors(self);   /* destructors, owner-dead (lifecycle.h) */
	if (self->libc.dlerror_buf) green_libc_thread_end();   /* a failed dl* call's message */

	GREEN_ENTER();
	if (--__green_live == 0) {
		/* the last thread: as if exit(0) were called (POSIX) */
		GREEN_LEAVE();
		exit(0);
	}
	if (self->io_node.linked) __green_io_thread_exit(self);   /* stayed on a list (src/sysio/io.h) */
	if (self->joiner) green_wake(self->joiner, 0, 0);   /* runq.h, not the out-of-line copy */
	if (self->detached) __green_registry_del(self);   /* no longer a target */
	__green_exit_switch();
}

_Noreturn void __pthread_exit(void *result)
{
	struct green_thread *self = __green_cur;

	self->cancel_disable = 1;
	self->cancel_async = 0;
	self->result = result;
	if (self->unwind) __green_exit_unwind(self);   /* a C++ program: unwinds, ends in __green_exit_rest */
	exit_rest(self);
}

/* The same, where the unwinding of a C++ program's exit lands
 * (run_landing; unwind.c). */
hidden _Noreturn void __green_exit_rest(void)
{
	exit_rest(__green_cur);
}

weak_alias(__pthread_create, pthread_create);
weak_alias(__pthread_exit, pthread_exit);

pthread_t pthread_self(void)
{
	return gp(__green_cur);
}
weak_alias(pthread_self, thrd_current);

