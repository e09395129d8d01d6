/*
 * atfork.c — pthread_atfork handlers (musl).
 *
 * musl's fork() calls __fork_handler(-1) before forking and
 * __fork_handler(0 in the parent, 1 in the child) after.  In the child
 * green first forgets every other thread (fork.c), then the program's
 * child handlers run.  (The glibc overlay registers __green_fork_child
 * with glibc's own pthread_atfork instead.)
 */
#include <stdlib.h>
#include <errno.h>
#include "base/gthread.h"
#include "thread/gfork.h"
#include "sync/addrwait.h"
#include "lock.h"

struct atfork {
	void (*prepare)(void), (*parent)(void), (*child)(void);
	struct atfork *prev, *next;
};
static struct atfork *first, *last;
static volatile int lock[1];


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

hidden void __fork_handler(int who)
{
	struct atfork *a;
	if (who < 0 && __green_started)
		__green_cur->tid = __pthread_self()->tid;
	if (who > 0) __green_pshared_reset();
	if (who > 0 && __green_started)
		__green_fork_child();
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
