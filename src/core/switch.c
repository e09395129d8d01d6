/*
 * switch.c — the out-of-line hand-off (switch.h has it inline, and says
 * how the libc's per-thread state follows the thread), and the reaping
 * of exited detached threads.
 */
#include <stddef.h>
#include "gthread.h"
#include "section.h"
#include "gsched.h"
#include "lifecycle.h"
#include "gfork.h"
#include "gstack.h"
#include "switch.h"

/* gthread.h keeps what a switch reads in the descriptor's first line */
_Static_assert(offsetof(struct green_thread, sigpend) + sizeof(uint64_t) <= 64,
               "the fields a switch reads fit in the descriptor's first cache line");

hidden struct green_thread *__green_reap_list;

hidden void __green_switch(struct green_thread *from, struct green_thread *to)
{
	green_switch(from, to);
}

/* An exiting detached thread: its stack is freed after the switch away
 * from it (__green_exit_switch). */
hidden void __green_reap_later(struct green_thread *t)
{
	t->reap_next = __green_reap_list;
	__green_reap_list = t;
}

/* Free the stacks of detached threads that have exited (never our own). */
hidden void __green_reap(void)
{
	struct green_thread *t;
	green_np_up();   /* library work, not a scheduling point (GREEN_SCHED) */
	while ((t = __green_reap_list)) {
		__green_reap_list = t->reap_next;
		__green_all_remove(t);
		__green_stack_free(t);
	}
	green_np_down();
}

hidden void __green_reap_reset(void)
{
	__green_reap_list = 0;
}
