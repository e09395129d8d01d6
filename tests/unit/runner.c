/*
 * runner.c — the one Check runner: one suite per area.
 *
 * Built twice by make check: tests/runner-green (green-cc) and
 * tests/runner-1to1 (green-cc --threads=1to1).  Tests that depend on
 * uniprocessor scheduling test __GREEN_THREADS__ and are registered only
 * in green mode.  Pass suite names as arguments to run only those.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "testutil.h"

#define SUITES(X) X(thread) X(mutex) X(cond) X(time) X(tsd) X(once) X(rwlock) \
	X(barrier) X(sem) X(spin) X(c11) X(errno) X(cancel) X(stdio) X(io) X(posix) X(signal) X(tls) X(pshared) X(aio) X(string) X(stackshare) X(kernel) X(sched)

/* weak, so a runner can be linked from a subset of the suite files */
#define DECLARE(n) Suite *suite_##n(void) __attribute__((weak));
SUITES(DECLARE)

int main(int argc, char **argv)
{
	SRunner *sr = srunner_create(0);
	int failed;
#define ADD(n) if (suite_##n && (argc < 2 || wanted(argc, argv, #n))) \
	srunner_add_suite(sr, suite_##n());
	SUITES(ADD)
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
