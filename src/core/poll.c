/*
 * poll.c — waiting for the kernel when no thread can run.
 *
 * The backend interface is two functions: how many threads wait on
 * descriptors (a wake source the deadlock detector must respect) and
 * "wait until this deadline or an event".  This step has no descriptor
 * waiters yet; the wait is a ppoll with no descriptors, which sleeps in
 * the kernel until the deadline and returns early with EINTR when a
 * signal handler runs.  The select()/poll() multiplexer slots in here.
 */
#include <poll.h>
#include <signal.h>
#include <errno.h>
#include "green.h"

hidden int __green_poll_waiters(void)
{
	return 0;
}

hidden void __green_poll_check(void)
{
}

hidden int __green_poll_wait(uint64_t deadline)
{
	struct timespec ts, *tsp = 0;
	if (deadline != GREEN_NO_DEADLINE) {
		uint64_t now = __green_now();
		uint64_t d = deadline > now ? deadline - now : 0;
		ts.tv_sec = d / 1000000000u;
		ts.tv_nsec = d % 1000000000u;
		tsp = &ts;
	}
	return __syscall(SYS_ppoll, 0, 0, tsp, 0, _NSIG / 8);
}
