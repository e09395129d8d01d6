/*
 * once.c — pthread_once and call_once.
 *
 * The control word is 0 (not run), 1 (running) or 2 (done).  Threads that
 * find it running wait on its address; a cancelled initialiser puts it
 * back to 0 and wakes them, so one of them runs it again (POSIX).
 *
 * C++'s std::call_once runs its function inside pthread_once, and a
 * function that throws leaves it by unwinding: the control must go back
 * to 0 then too (C++ says the next caller runs it), and the cancellation
 * handler pushed here must come off the thread's list, or the thread's
 * exit would run it on a frame long gone.  Where this file is compiled
 * with -fexceptions (x86_64, src/include.am) the `running` record's
 * cleanup does both while an exception unwinds; cancellation, which in
 * musl does not unwind, still runs undo from the list.  (In green's
 * libc.so the cleanup's personality routine and _Unwind_Resume are the
 * program's: thread/unwinder.c.)  The SPARC overlay
 * (no green-c++) keeps glibc's cleanup macros.
 */
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "sync/addrwait.h"

static void undo(void *p)
{
	volatile int *c = p;
	*c = 0;
	__green_futex_wake(c, -1);
}

#ifndef GREEN_OVERLAY   /* musl's cleanup records; the overlay keeps glibc's macros */
struct running {
	struct __ptcb cb;
	volatile int *c;
	int left;       /* init returned */
};

static void unwound(struct running *r)
{
	if (r->left) return;
	_pthread_cleanup_pop(&r->cb, 0);
	undo((void *)r->c);
}
#endif

int __pthread_once(pthread_once_t *control, void (*init)(void))
{
	volatile int *c = (volatile int *)control;

	while (*c != 2) {
		int mine;
		GREEN_ENTER();
		mine = *c == 0;
		if (mine) *c = 1;
		GREEN_LEAVE();
		if (mine) {
#ifdef GREEN_OVERLAY
			pthread_cleanup_push(undo, (void *)c);
			init();
			pthread_cleanup_pop(0);
#else
			struct running r __attribute__((cleanup(unwound))) = { .c = c };
			_pthread_cleanup_push(&r.cb, undo, (void *)c);
			init();
			_pthread_cleanup_pop(&r.cb, 0);
			r.left = 1;
#endif
			*c = 2;
			if (green_active()) __green_futex_wake(c, -1);
			return 0;
		}
		__green_futex_wait(c, 1, GREEN_NO_DEADLINE, GW_ADDR);
	}
	return 0;
}
weak_alias(__pthread_once, pthread_once);
