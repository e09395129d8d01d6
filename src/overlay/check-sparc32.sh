#!/bin/sh
# check-sparc32.sh — the overlay's Check suites in 32-bit SPARC code (V8+),
# cooperatively and with copied stacks, under qemu-sparc32plus with the
# 32-bit glibc as its /lib.  Time-sliced runs are left out: under
# qemu-sparc32plus 7.2 they crash intermittently (docs/ports.md).
# Run with GREEN_CHECK_SPARC32=1 in make check's environment, as .ci/run
# does.
. "$GREEN_SRC/tests/lib.sh"
if [ "${GREEN_CHECK_SPARC32:-}" != 1 ]; then
	echo "SKIP: the 32-bit SPARC suites run with GREEN_CHECK_SPARC32=1 (docs/ports.md)"
	exit 77
fi
RUN32=${GREEN_RUN32:-}
if [ -z "$RUN32" ] && [ -n "$GREEN_RUN" ]; then
	echo "SKIP: no qemu-sparc32plus"
	exit 77
fi
[ -n "$RUN32" ] && RUN32="$RUN32 -L $B/sysroot32"
run() {   # run WHAT ENV...
	what=$1
	shift
	if env "$@" $RUN32 "$B/tests/runner-green32" > "$B/tests/sparc32.out" 2>&1; then
		pass "$what: $(tail -n 1 "$B/tests/sparc32.out")"
	else
		sed 's/^/    /' "$B/tests/sparc32.out"
		fail "$what"
	fi
}
run "32-bit, cooperative" GREEN_QUANTUM_MS=0
run "32-bit, copied stacks" GREEN_QUANTUM_MS=0 GREEN_STACKS=copied
finish
