#!/bin/sh
# The same suites on kernel threads (stock musl): what green must match.
. "$GREEN_SRC/tests/lib.sh"
if [ -n "$GREEN_RUN" ]; then
	# Under qemu-user, stock musl's cancellation (a signal whose handler
	# moves the interrupted pc) crashes the process on m68k: that suite
	# is left out of the 1:1 comparison there (docs/ports.md).
	suites=$(echo " ${GREEN_SUITES:-} " | sed 's/ cancel / /')
	[ -n "${GREEN_SUITES:-}" ] && echo "1:1 under $GREEN_RUN: the cancel suite is left out"
	exec $GREEN_RUN "$B/tests/runner-1to1" $suites
fi
exec "$B/tests/runner-1to1"
