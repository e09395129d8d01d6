/*
 * deadlock.c — the deadlock report: nothing is runnable, no deadline is
 * pending, no descriptor or child is awaited, and no signal handler could
 * still wake a thread.  Each thread is printed with what it waits for,
 * then the process aborts (a core to look at).  It reads every
 * subsystem's waits, so it sits above them all (README.md).
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <signal.h>
#include "base/gthread.h"
#include "base/report.h"
#include "base/gconfig.h"
#include "sync/sync.h"
#include "signal/gsignal.h"
#include "fdwait.h"
#include "ioq.h"
#include "diag/diag.h"

static void report_one(struct green_thread *t)
{
	char me[64], other[64];
	const void *o = t->wait_obj;

	__green_describe(t, me, sizeof me);
	switch (t->state == GS_BLOCKED ? t->wait : GW_NONE) {
	case GW_MUTEX: {
		const struct gmutex *m = o;
		if (gm_owner(m)) __green_describe(gm_owner(m), other, sizeof other);
		else strcpy(other, "nobody");
		__green_say("green:   %s waits for mutex %p held by %s\n", me, o, other);
		break;
	}
	case GW_JOIN:
		__green_describe((struct green_thread *)o, other, sizeof other);
		__green_say("green:   %s waits in pthread_join for %s\n", me, other);
		break;
	case GW_FD:
		__green_say("green:   %s waits for descriptor %d to be %s\n", me, io_key_fd(o),
		            io_key_ev(o) & GREEN_OUT ? "writable" : "readable");
		break;
	case GW_POLL:
		__green_say("green:   %s waits in poll/select on %lu descriptors\n", me,
		            ((const struct io_set *)o)->n);
		break;
	case GW_NONE:
		__green_say("green:   %s is %s\n", me,
		            t->state == GS_EXITED ? "exited, not yet joined" : "runnable");
		break;
	default:
		__green_say("green:   %s waits on %s %p\n", me, __green_wait_name(t->wait), o);
	}
}

/* Could a signal handler of the program still wake somebody (say, by
 * posting a semaphore)?  Synchronous signals cannot. */
static int wakeable_by_signal(void)
{
	struct sigaction sa;
	if (green_active()) return __green_sig_wakeable();
	for (int s = 1; s < _NSIG; s++) {
		if (s == SIGSEGV || s == SIGBUS || s == SIGFPE || s == SIGILL ||
		    s == SIGTRAP || (s <= 64 && (GREEN_LIBC_SIGS >> (s - 1) & 1)))
			continue;
		if (__libc_sigaction(s, 0, &sa)) continue;
		if (sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN) return 1;
	}
	return 0;
}

/*
 * Nothing is runnable, no deadline is pending and no descriptor is
 * awaited.  If a handler could still run, return and let the idle loop
 * sleep until a signal arrives; otherwise report and abort.
 */
hidden void __green_deadlock(void)
{
	struct green_thread *t;

	if (wakeable_by_signal()) return;
	__green_say("green: deadlock: every thread is blocked and nothing can wake one\n");
	for (t = __green_all; t; t = t->all_next) report_one(t);
	__green_explore_report();   /* under GREEN_SCHED: the seed and decision hash */
	abort();
}
