#!/bin/sh
# The Check suites in green mode (each test forked, as Check does by
# default), cooperative: the tests of exact schedules run here; the same
# suites run time-sliced in check-valgrind.sh (default quantum) and
# check-quantum1.sh (1 ms).
. "$GREEN_SRC/tests/lib.sh"
GREEN_QUANTUM_MS=0 exec $GREEN_RUN "$B/tests/runner-green"
