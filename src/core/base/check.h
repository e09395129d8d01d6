/*
 * check.h — invariants that speak.  Under GREEN_DEBUG=1 (or =checks) the
 * scheduler checks its state at every switch (sched/invariants.c); a
 * broken invariant is reported at once with the thread, what was found
 * and what was expected, then the process aborts, leaving a core at the
 * moment of the fault rather than a crash far away:
 *
 *   green: invariant broken: thread 2 "victim": its place on the run
 *   queue: found the thread switched to, expected off the run queue
 *
 * The checks cost nothing while off: the switch's kind has a bit for them
 * (GREEN_SWITCH_CHECK, words.h), so a switch makes the one test it makes
 * anyway.
 */
#ifndef GREEN_CHECK_H
#define GREEN_CHECK_H
#include "base/gthread.h"

/* t (0: the process) broke an invariant about `what`: print and abort */
hidden _Noreturn void __green_broken(const struct green_thread *t, const char *what,
                                     const char *found, const char *expected);

/* cond must hold of thread t; when it does not, report and abort */
#define green_check(t, cond, what, found, expected) \
	do { if (__builtin_expect(!(cond), 0)) __green_broken((t), (what), (found), (expected)); } while (0)

#endif
