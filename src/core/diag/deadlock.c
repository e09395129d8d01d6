/*
 * deadlock.c — the deadlock report: nothing is runnable, no deadline is
 * pending, no descriptor or child is awaited, and no signal handler could
 * still wake a thread.  Each thread is printed with what it waits for,
 * then the process aborts (a core to look at).  It reads every
 * subsystem's waits, so it sits above them all (README.md).
 *
 * An object is named by the program's symbol for it, when it has one,
 * and each wait by the program's frame that called to wait (symbols.c).
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

/* "KIND 'symbol' (ADDRESS)" when the program has a symbol for the
 * object (symbols.c), else "KIND ADDRESS" */
static void object_name(const char *kind, const void *o, char *buf, size_t len)
{
	char sym[96];
	if (__green_data_name(o, sym, sizeof sym)) snprintf(buf, len, "%s '%s' (%p)", kind, sym, o);
	else snprintf(buf, len, "%s %p", kind, o);
}

static void report_one(struct green_thread *t, const void *from)
{
	char me[64], other[64], what[160], at[112] = "", fr[96];
	const void *o = t->wait_obj;

	__green_describe(t, me, sizeof me);
	/* where the program called to wait (symbols.c) */
	if (t->state == GS_BLOCKED && __green_wait_frame(t, from, fr, sizeof fr))
		snprintf(at, sizeof at, ", in %s", fr);
	switch (t->state == GS_BLOCKED ? t->wait : GW_NONE) {
	case GW_MUTEX: {
		const struct gmutex *m = o;
		if (gm_owner(m)) __green_describe(gm_owner(m), other, sizeof other);
		else strcpy(other, "nobody");
		object_name("mutex", o, what, sizeof what);
		/* one with no symbol (on the heap, on a stack) is named by
		 * the frame that locks it */
		if (!strchr(what, '\'') && at[0])
			snprintf(what + strlen(what), sizeof what - strlen(what), " (the one %s locks)", fr), at[0] = 0;
		__green_say("green:   %s waits for %s held by %s%s\n", me, what, other, at);
		break;
	}
	case GW_JOIN:
		__green_describe((struct green_thread *)o, other, sizeof other);
		__green_say("green:   %s waits in pthread_join for %s%s\n", me, other, at);
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
		object_name(__green_wait_name(t->wait), o, what, sizeof what);
		__green_say("green:   %s waits on %s%s\n", me, what, at);
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
	char from;   /* the running thread's stack is read from here up */

	if (wakeable_by_signal()) return;
	__green_say("green: deadlock: every thread is blocked and nothing can wake one\n");
	for (t = __green_all; t; t = t->all_next) report_one(t, &from);
	__green_explore_report();   /* under GREEN_SCHED: the seed and decision hash */
	abort();
}
