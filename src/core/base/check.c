/*
 * check.c — the report of a broken invariant (check.h): one line naming
 * the thread, what was found and what was expected, written with the
 * raw write of report.c (stdio may be locked by a parked thread), then
 * abort: the core shows the state as it was found.
 */
#include <stdlib.h>
#include "base/gthread.h"
#include "base/report.h"
#include "base/check.h"

hidden _Noreturn void __green_broken(const struct green_thread *t, const char *what,
                                     const char *found, const char *expected)
{
	char who[64] = "the process";

	if (t && t->magic == GREEN_MAGIC) __green_describe((struct green_thread *)t, who, sizeof who);
	else if (t) __green_say("green: invariant broken: descriptor %p has no magic (freed or overwritten)\n", (void *)t);
	__green_say("green: invariant broken: %s: %s: found %s, expected %s\n", who, what, found, expected);
	abort();
}
