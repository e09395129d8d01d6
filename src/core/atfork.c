/*
 * atfork.c — pthread_atfork handlers, and the child side of fork().
 *
 * musl's fork() calls __fork_handler(-1) before forking and
 * __fork_handler(0 in the parent, 1 in the child) after.  In the child
 * only the calling thread survives (POSIX): before the program's child
 * handlers run, every other thread is forgotten and its stack unmapped,
 * the caller becomes the only thread, and the queues start empty.
 */
#include <stdlib.h>
#include <errno.h>
#include <sys/mman.h>
#include "green.h"
#include "valgrind-glue.h"
#include "lock.h"

struct atfork {
	void (*prepare)(void), (*parent)(void), (*child)(void);
	struct atfork *prev, *next;
};
static struct atfork *first, *last;
static volatile int lock[1];

hidden void __green_runq_reset(void);
hidden void __green_timers_reset(void);
hidden void __green_futex_reset(void);
hidden void __green_reap_reset(void);
hidden void __green_io_reset(void);

int pthread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
	struct atfork *a = malloc(sizeof *a);
	if (!a) return ENOMEM;
	*a = (struct atfork){ prepare, parent, child, 0, 0 };
	LOCK(lock);
	a->prev = last;
	if (last) last->next = a;
	else first = a;
	last = a;
	UNLOCK(lock);
	return 0;
}

static void child_keeps_caller(void)
{
	struct green_thread *self = __green_cur, *t, *next;

	__pthread_self()->tid = self->tid;
	for (t = __green_all; t; t = next) {
		next = t->all_next;
		if (t == self) continue;
		t->magic = 0;
		if (t->own_stack) {
			GREEN_VG_STACK_DEREGISTER(t->vg_id);
			munmap(t->map_base, t->map_size);
		}
	}
	self->all_next = self->all_prev = 0;
	__green_all = self;
	__green_live = 1;
	__green_runq_reset();
	__green_timers_reset();
	__green_futex_reset();
	__green_io_reset();
	__green_reap_reset();
	if (self != &__green_main) __green_main.state = GS_EXITED;
	__green_pid = __syscall(SYS_getpid);
	__green_sig_after_fork();
	__green_tick_after_fork();
}

hidden void __fork_handler(int who)
{
	struct atfork *a;
	if (who < 0 && __green_started)
		__green_cur->tid = __pthread_self()->tid;
	if (who > 0 && __green_started)
		child_keeps_caller();
	if (!first) return;
	LOCK(lock);
	if (who < 0) {
		for (a = last; a; a = a->prev)
			if (a->prepare) a->prepare();
	} else {
		for (a = first; a; a = a->next)
			if (who ? a->child : a->parent)
				(who ? a->child : a->parent)();
	}
	UNLOCK(lock);
}
