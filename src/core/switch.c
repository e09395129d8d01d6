/*
 * switch.c — hand the CPU from one green thread to another.
 *
 * All green threads share musl's one thread control block (the thread
 * pointer never moves, so GCC may keep caching &errno: __errno_location
 * is declared const).  The per-thread fields of that block are bound
 * shallowly (Marovich 2.2): on every switch the outgoing thread's values
 * are saved in its descriptor and the incoming thread's values installed.
 *
 *   errno_val    errno
 *   tid          owner id of FILE locks: __lockfile and the inline
 *                getc/putc fast paths compare it with the lock word
 *   h_errno_val  h_errno
 *   locale       uselocale()
 *   stdio_locks  the flockfile() list
 */
#include "green.h"

hidden void __green_all_remove(struct green_thread *);

/* Threads whose stacks could not be freed while they ran on them. */
static struct green_thread *reap_list;

/* musl's one TCB, cached: reading the thread pointer is a system call
 * on some CPUs (m68k). */
hidden struct pthread *__green_tcb;

hidden void __green_switch(struct green_thread *from, struct green_thread *to)
{
	struct pthread *tcb = __green_tcb;

	from->errno_val = tcb->errno_val;
	from->tid = tcb->tid;
	from->h_errno_val = tcb->h_errno_val;
	from->locale = tcb->locale;
	from->stdio_locks = tcb->stdio_locks;
	from->np = __green_np;
	if (from->state == GS_EXITED && from->detached) {
		from->reap_next = reap_list;
		reap_list = from;
	}

	tcb->errno_val = to->errno_val;
	tcb->tid = to->tid;
	tcb->h_errno_val = to->h_errno_val;
	tcb->locale = to->locale;
	tcb->stdio_locks = to->stdio_locks;
	__green_np = to->np;
	to->state = GS_RUNNING;
	__green_cur = to;
	__green_nswitch++;

	if (to->stack_mode == GREEN_STACK_COPIED && __green_region_owner != to)
		__green_copied_switch(from, to);   /* the region changes hands */
	else
		__green_arch_switch(&from->sp, to->sp);

	/* running as `from` again, on its own stack */
	if (reap_list) __green_reap();
	green_sig_check(from);
	__green_cancel_async(from);
}

/* Free the stacks of detached threads that have exited (never our own). */
hidden void __green_reap(void)
{
	struct green_thread *t;
	while ((t = reap_list)) {
		reap_list = t->reap_next;
		__green_all_remove(t);
		__green_stack_free(t);
	}
}

hidden void __green_reap_reset(void)
{
	reap_list = 0;
}
