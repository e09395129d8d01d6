#!/bin/sh
# 100,000 green threads with copied stacks parked on one condition
# variable at once; prints the resident size and bytes per parked thread.
# (1,000,000 runs in `./quickstart bench`; separate stacks stop near
# 32,000 threads at the kernel's limit of memory mappings, docs/stacks.md.)
. "$GREEN_SRC/tests/lib.sh"
out=$($GREEN_RUN "$B/tests/prog/manythreads-green" 100000 copied 2>&1) && pass "100000 copied-stack threads parked and joined: $out" ||
	fail "100000 copied-stack threads: $out"
out=$($GREEN_RUN "$B/tests/prog/manythreads-green" 10000 separate 2>&1) && pass "10000 separate-stack threads parked and joined: $out" ||
	fail "10000 separate-stack threads: $out"
finish
