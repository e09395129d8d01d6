/*
 * aio_suspend — wait until one of a list of requests is complete, a
 * signal handler has run (EINTR), or the timeout has passed (EAGAIN).
 *
 * The caller parks alone, on the completion word (aio.c): whoever
 * completes a request — the ring's reaper, a worker, aio_cancel — bumps
 * it and wakes every waiter, which looks at its list again.  The look and
 * the park are one no-preempt section, so no completion falls between
 * them.  A cancellation point.  The timeout is relative, on the
 * monotonic clock.
 */
#include <aio.h>
#include <errno.h>
#include <time.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "sync/addrwait.h"
#include "aio/aioreq.h"

#undef aio_suspend64

static int any_done(const struct aiocb *const list[], int n)
{
	for (int i = 0; i < n; i++)
		if (list[i] && list[i]->__err != EINPROGRESS) return 1;
	return 0;
}

int aio_suspend(const struct aiocb *const list[], int n, const struct timespec *ts)
{
	uint64_t deadline = GREEN_NO_DEADLINE;
	int done, r = 0;

	if (n < 0 || (ts && (ts->tv_sec < 0 || (unsigned long)ts->tv_nsec >= 1000000000))) {
		errno = EINVAL;
		return -1;
	}
	__green_cancel_point();
	if (ts) deadline = __green_deadline_rel(ts);
	for (;;) {
		GREEN_ENTER();
		if (!(done = any_done(list, n))) {
			r = GREEN_CP_WAIT(1, __green_futex_wait(&__green_aio_gen, __green_aio_gen,
			                                        deadline, GW_AIO));
			done = any_done(list, n);
		}
		GREEN_LEAVE();
		if (done) return 0;
		if (r == ECANCELED) __green_cancel_point();
		if (r == ETIMEDOUT) {
			errno = EAGAIN;
			return -1;
		}
		if (r == EINTR) {
			errno = EINTR;
			return -1;
		}
		r = 0;
	}
}

#if !_REDIR_TIME64
weak_alias(aio_suspend, aio_suspend64);
#endif
