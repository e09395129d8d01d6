/*
 * retry.c — a wait for what nothing announces: a record lock, a System V
 * message queue, a child without a pidfd, a word another process
 * changes.  The thread sleeps and looks again, 1, 2, then 4 ms between
 * looks (GREEN_RETRY_MS), never longer, so that a late event costs at
 * most 4 ms and a long wait a wake-up every 4 ms.  One schedule serves
 * every such wait: the I/O layer's polled calls (src/sysio/), the
 * process-shared words and the waiter board's slots (pshared.c,
 * board.c) and the io_uring's full queue (aio_ring.c).
 */
#include <errno.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"

static const unsigned retry_ms[] = { GREEN_RETRY_MS };
#define RETRY_STEPS (sizeof retry_ms / sizeof *retry_ms)

hidden uint64_t __green_retry_at(unsigned *step, uint64_t deadline)
{
	uint64_t at = __green_now() + retry_ms[*step] * 1000000ull;

	if (*step < RETRY_STEPS - 1) ++*step;
	return at < deadline ? at : deadline;
}

static int retry_park(enum gwait kind, const void *obj, uint64_t at)
{
	int r;

	GREEN_ENTER();
	r = green_cancel_due(__green_cur) ? ECANCELED : __green_wait(0, kind, obj, at);
	GREEN_LEAVE();
	return r;
}

hidden int __green_retry_wait(enum gwait kind, const void *obj, unsigned *step, uint64_t deadline, int cp)
{
	uint64_t at = __green_retry_at(step, deadline);
	int r = GREEN_CP_WAIT(cp, retry_park(kind, obj, at));

	if (r == ETIMEDOUT && at < deadline) r = 0;
	return r;
}
