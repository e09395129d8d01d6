/*
 * join.c — pthread_join, its timed, clock and try variants, and detach.
 *
 * A joinable thread that exits keeps its descriptor and stack until it is
 * joined; the joiner frees them.  A detached thread is freed by whoever
 * runs next after it has switched away for the last time (switch.c).
 */
#include <errno.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "thread/lifecycle.h"
#include "stack/gstack.h"

/* Inside GREEN_ENTER: an exited thread stops being a valid handle.  In
 * line in the join. */
static inline __attribute__((always_inline)) void release(struct green_thread *t)
{
	__green_registry_del(t);
	green_all_remove(t);
	if (t != &__green_main) __green_stack_free(t);
}

/* In line in pthread_join, which has no deadline and waits; the timed,
 * clock and try variants share the copy in join_any. */
static inline __attribute__((always_inline))
int join(pthread_t p, void **res, clockid_t clk, const struct timespec *at, int try)
{
	struct green_thread *self = __green_cur, *t;
	uint64_t deadline = GREEN_NO_DEADLINE;
	int r, err = 0, tested = try;

	/* The look-up, the checks and the wait are one section: two threads
	 * joining each other could otherwise both pass the check, then both
	 * wait.  A pending cancel is acted on outside it, after the checks
	 * that fail at once (ESRCH, EDEADLK), as before any wait. */
	GREEN_ENTER();
again:
	t = __green_registered(p);
	if (!t) err = ESRCH;
	else if (t == self) err = EDEADLK;
	else if (!tested && self->cancel_pending) {
		tested = 1;
		GREEN_LEAVE();
		__green_cancel_point();   /* returns if cancellation is disabled */
		GREEN_ENTER();
		goto again;
	} else if (t->state == GS_EXITED && t->detached) err = ESRCH;
	else if (t->detached || (t->joiner && t->joiner != self)) err = EINVAL;
	else if (t->state == GS_BLOCKED && t->wait == GW_JOIN && t->wait_obj == self)
		err = EDEADLK;   /* two threads joining each other */
	else if (at) {
		int e = 0;
		deadline = __green_deadline(clk, at, &e);
		err = e;
	}
	if (err) {
		GREEN_LEAVE();
		return err;
	}
	while (t->state != GS_EXITED) {
		if (try) {
			GREEN_LEAVE();
			return EBUSY;
		}
		t->joiner = self;
		r = GREEN_CP_WAIT_AS(self, 1, __green_wait(0, GW_JOIN, t, deadline));
		t->joiner = 0;
		if (r == ECANCELED) {
			GREEN_LEAVE();
			__green_cancel_point();   /* does not return: cancel is pending */
			GREEN_ENTER();
		}
		if (r == ETIMEDOUT) {
			GREEN_LEAVE();
			return ETIMEDOUT;
		}
	}
	if (res) *res = t->result;
	release(t);
	GREEN_LEAVE();
	return 0;
}

static __attribute__((noinline))
int join_any(pthread_t p, void **res, clockid_t clk, const struct timespec *at, int try)
{
	return join(p, res, clk, at, try);
}

int __pthread_join(pthread_t t, void **res)
{
	return join(t, res, CLOCK_REALTIME, 0, 0);
}

int pthread_timedjoin_np(pthread_t t, void **res, const struct timespec *at)
{
	return join_any(t, res, CLOCK_REALTIME, at, 0);
}

/* glibc's extension: the deadline on CLOCK_REALTIME or CLOCK_MONOTONIC */
int pthread_clockjoin_np(pthread_t t, void **res, clockid_t clk, const struct timespec *at)
{
	return join_any(t, res, clk, at, 0);
}

int pthread_tryjoin_np(pthread_t t, void **res)
{
	return join_any(t, res, CLOCK_REALTIME, 0, 1);
}

weak_alias(__pthread_join, pthread_join);

static int __pthread_detach(pthread_t p)
{
	struct green_thread *t = __green_lookup(p);

	if (!t || (t->state == GS_EXITED && t->detached)) return ESRCH;
	if (t->detached) return EINVAL;
	GREEN_ENTER();
	if (t->state == GS_EXITED) {
		release(t);
	} else {
		t->detached = 1;
	}
	GREEN_LEAVE();
	return 0;
}

weak_alias(__pthread_detach, pthread_detach);
weak_alias(__pthread_detach, thrd_detach);
