#!/bin/sh
# The Check suites in green mode with copied stacks (GREEN_STACKS=copied):
# every thread a test creates runs at a stack slot of its own, and at most
# 64 of them keep their stacks mapped (GREEN_COPIED_HOT), so that the
# suites with many threads load and evict parked stacks (docs/stacks.md).
. "$GREEN_SRC/tests/lib.sh"
GREEN_DEBUG=checks GREEN_STACKS=copied GREEN_COPIED_HOT=64 GREEN_QUANTUM_MS=0 exec $GREEN_RUN "$B/tests/runner-green"
