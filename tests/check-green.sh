#!/bin/sh
# The Check suites in green mode (each test forked, as Check does by
# default), cooperative: the tests of exact schedules run here; the same
# suites run time-sliced in check-valgrind.sh (default quantum) and
# check-quantum1.sh (1 ms).  The aio suite runs first on the worker
# threads that stand in for io_uring (lib.sh), and the suites that wait
# on descriptors run again on the epoll and poll backends (lib.sh).
. "$GREEN_SRC/tests/lib.sh"
st=0
aio_on_workers 0 || st=1
io_backends 0 || st=1
GREEN_QUANTUM_MS=0 $GREEN_RUN "$B/tests/runner-green" || st=1
exit $st
