/*
 * fork.c — the child side of fork() from a green thread.
 *
 * In the child only the calling thread survives (POSIX): before the
 * program's child handlers run, every other thread is forgotten (left as
 * a ghost, below), the caller becomes the only thread, and green's own
 * queues start empty.  Called from musl's fork hook (atfork.c) or, in the glibc
 * overlay, as a child handler registered with glibc's pthread_atfork.
 */
#include <sys/mman.h>
#include "base/gthread.h"
#include "sched/gsched.h"
#include "thread/lifecycle.h"
#include "sched/tick.h"
#include "signal/gsignal.h"
#include "thread/gfork.h"
#include "sync/addrwait.h"
#include "sched/runq.h"
#include "ioq.h"

hidden void __green_fork_child(void)
{
	struct green_thread *self = __green_cur, *t, *next;

	green_libc_fork_child(self);
	for (t = __green_all; t; t = next) {
		next = t->all_next;
		if (t == self) continue;
		/* a ghost: its descriptor stays mapped, because it may still be
		 * linked into the wait queue of a mutex, semaphore or condition
		 * variable in the child's memory; queue pops skip it (queue.c)
		 * and nothing wakes it (not blocked).  The child usually execs;
		 * until then the parent's other stacks stay copy-on-write. */
		t->magic = 0;
		t->state = GS_EXITED;
	}
	self->all_next = self->all_prev = 0;
	__green_all = self;
	__green_registry_reset(self);
	__green_live = 1;
	__green_runq_reset();
	__green_timers_reset();
	__green_futex_reset();
	__green_futex_waitv_reset();
	__green_io_reset();
	__green_pshared_reset();
	__green_reap_reset();
	if (self != &__green_main) {
		__green_main.state = GS_EXITED;   /* gone, and nobody may join it */
		__green_main.detached = 1;
	}
	__green_pid = __syscall(SYS_getpid);
	__green_kernel_rt = -1;   /* SCHED_RESET_ON_FORK: sched_yield asks again */
	__green_sig_after_fork();
	__green_tick_after_fork();
}
