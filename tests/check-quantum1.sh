#!/bin/sh
# The Check suites in green mode with a 1 ms quantum: preemption lands
# inside the library and the tests many times more often than at the
# default quantum (check-green.sh runs them cooperatively).
. "$GREEN_SRC/tests/lib.sh"
GREEN_QUANTUM_MS=1 exec $GREEN_RUN "$B/tests/runner-green"
