/*
 * report.c — messages from the library, and threads and waits named for
 * people (the deadlock report is diag/deadlock.c).
 *
 * Messages are formatted into a local buffer and written with one raw
 * write(2): they must work with stdio locked by a parked thread, from a
 * signal handler, and on a nearly exhausted stack.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "base/gthread.h"
#include "base/report.h"

hidden void __green_say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof buf - 1) n = sizeof buf - 1;
	if (n > 0) __syscall(SYS_write, 2, buf, n);
}

/* "" for a thread never named; the main thread's name is the program's */
hidden const char *__green_name(struct green_thread *t)
{
	if (t->name[0] || t != &__green_main) return t->name;
	return __progname;
}

hidden void __green_describe(struct green_thread *t, char *buf, size_t len)
{
	const char *name = __green_name(t);
	if (name[0]) snprintf(buf, len, "thread %u \"%s\"", t->id, name);
	else snprintf(buf, len, "thread %u", t->id);
}

hidden const char *__green_wait_name(enum gwait w)
{
	switch (w) {
	case GW_MUTEX: return "mutex";
	case GW_COND: return "condition variable";
	case GW_JOIN: return "join";
	case GW_SLEEP: return "sleep";
	case GW_ADDR: return "lock word";
	case GW_RWLOCK: return "rwlock";
	case GW_BARRIER: return "barrier";
	case GW_SEM: return "semaphore";
	case GW_SIGNAL: return "signal";
	case GW_FD: return "descriptor";
	case GW_POLL: return "poll/select";
	case GW_CHILD: return "child process";
	case GW_RETRY: return "polled lock or queue";
	case GW_AIO: return "asynchronous I/O";
	case GW_EXIT: return "the exit another thread runs";
	case GW_FUTEX: return "futex word";
	default: return "nothing";
	}
}

hidden const char *__green_state_name(enum gstate s)
{
	switch (s) {
	case GS_RUNNING: return "RUNNING";
	case GS_RUNNABLE: return "RUNNABLE";
	case GS_BLOCKED: return "BLOCKED";
	case GS_EXITED: return "EXITED";
	default: return "no state";
	}
}
