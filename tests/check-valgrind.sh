#!/bin/sh
# The green suites under valgrind memcheck, in one process (CK_FORK=no):
# any memcheck error fails the run.
. "$GREEN_SRC/tests/lib.sh"
[ -z "$GREEN_RUN" ] || { echo "valgrind cannot run a cross build under $GREEN_RUN"; exit 77; }
[ -n "$VALGRIND" ] || { echo "valgrind not installed"; exit 77; }
CK_FORK=no GREEN_VALGRIND=1 exec $VALGRIND $VG_FLAGS "$B/tests/runner-green"
