#!/bin/sh
# The Check suites in green mode with copied stacks (GREEN_STACKS=copied):
# every thread a test creates runs on the shared region.
. "$GREEN_SRC/tests/lib.sh"
GREEN_STACKS=copied GREEN_QUANTUM_MS=0 exec $GREEN_RUN "$B/tests/runner-green"
