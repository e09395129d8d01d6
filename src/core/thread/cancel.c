/*
 * cancel.c — cancellation state, cleanup handlers and deferred
 * cancellation at the library's waits.
 *
 * A cancel request sets cancel_pending.  If the target is blocked at a
 * cancellation point (t->canceling) with cancellation enabled, it is
 * woken with ECANCELED; the wait then acts on it with
 * __green_cancel_point, which runs the cleanup handlers and exits.
 */
#include <errno.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "thread/lifecycle.h"

/* __green_cancel_point (gsched.h) found a cancel to act on */
hidden _Noreturn void __green_cancel_exit(void)
{
	__pthread_exit(PTHREAD_CANCELED);
}

/*
 * Asynchronous cancellation of a thread that was off the CPU: the cancel
 * request finds it runnable (preempted by the tick, or yielding), or
 * blocked in any wait, which it ends; it acts the moment the thread is
 * switched in again — switch.c and the
 * start of a new thread call this.  A thread spinning in user code with
 * asynchronous cancellation enabled is thus cancelled at the tick that
 * lets the cancelling thread run.  Only a thread that enabled it is
 * affected; what it was doing is abandoned, which POSIX allows only in
 * async-cancel-safe code (the program's concern, as everywhere).
 */
hidden void __green_cancel_async(struct green_thread *self)
{
	if (self->cancel_pending && self->cancel_async && !self->cancel_disable) {
		__green_np = 0;   /* the handlers run preemptible, as the thread did */
		__pthread_exit(PTHREAD_CANCELED);
	}
}

int pthread_cancel(pthread_t p)
{
	struct green_thread *t = __green_lookup(p);
	if (!t) return ESRCH;
	/* one that has exited keeps its ID until it is joined (POSIX), as
	 * for pthread_kill: nothing left to cancel */
	if (t->state == GS_EXITED) return t->detached ? ESRCH : 0;
	GREEN_ENTER();
	t->cancel_pending = 1;
	t->io_slow |= GREEN_SLOW_CANCEL;
	/* deferred: only a wait that is a cancellation point; asynchronous:
	 * any wait (a mutex, a self-deadlock), acted on when it is
	 * switched in (__green_cancel_async), as glibc does at once */
	if (!t->cancel_disable && t->state == GS_BLOCKED && (t->canceling || t->cancel_async))
		__green_wake(t, ECANCELED);
	GREEN_LEAVE();
	if (t == __green_cur && t->cancel_async) __green_cancel_point();
	return 0;
}

int __pthread_setcancelstate(int new, int *old)
{
	struct green_thread *self = __green_cur;
	if ((unsigned)new > 2U) return EINVAL;
	if (old) *old = self->cancel_disable;
	self->cancel_disable = new;
	return 0;
}
weak_alias(__pthread_setcancelstate, pthread_setcancelstate);

int pthread_setcanceltype(int new, int *old)
{
	struct green_thread *self = __green_cur;
	if ((unsigned)new > 1U) return EINVAL;
	if (old) *old = self->cancel_async;
	self->cancel_async = new;
	if (new) __green_cancel_point();
	return 0;
}

void __testcancel(void)
{
	__green_cancel_point();
}

void __pthread_testcancel(void)
{
	__green_cancel_point();
}
weak_alias(__pthread_testcancel, pthread_testcancel);
