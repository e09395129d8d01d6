#!/bin/sh
# Copied stacks under valgrind memcheck, in one process, time-sliced:
# copying stacks in and out must not upset memcheck.  (Under valgrind no
# copied stack is unmapped while parked: docs/stacks.md.)
. "$GREEN_SRC/tests/lib.sh"
[ -z "$GREEN_RUN" ] || { echo "valgrind cannot run a cross build under $GREEN_RUN"; exit 77; }
[ -n "$VALGRIND" ] || { echo "valgrind not installed"; exit 77; }
GREEN_STACKS=copied CK_FORK=no GREEN_VALGRIND=1 exec $VALGRIND $VG_FLAGS "$B/tests/runner-green"
