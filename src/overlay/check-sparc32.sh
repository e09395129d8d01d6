#!/bin/sh
# check-sparc32.sh — the overlay's Check suites in 32-bit SPARC code (V8+),
# cooperatively and with copied stacks, under qemu-sparc32plus with the
# 32-bit glibc as its /lib; then time-sliced at 1 ms, with both stack
# modes, where signals keep V8+ registers whole.  qemu-sparc32plus 7.2
# does not: its 32-bit signal frames drop the high halves of the 64-bit
# global and out registers, which glibc's own memcpy and strcmp use, so
# any program taking signals there computes wrong results, green or not.
# tests/v8plus-signals32 (src/overlay/v8plus-signals.c) finds out first.
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
if probe=$($RUN32 "$B/tests/v8plus-signals32" 2>&1); then
	pass "32-bit signal frames keep V8+ registers: $probe"
	run "32-bit, 1 ms quantum" GREEN_QUANTUM_MS=1
	run "32-bit, copied stacks, 1 ms quantum" GREEN_QUANTUM_MS=1 GREEN_STACKS=copied
else
	echo "SKIP: 32-bit time-sliced runs: this emulator's signal frames lose the high halves"
	echo "      of V8+ registers, so glibc's memcpy and strcmp go wrong under any signal"
	echo "      ($probe; docs/ports.md)"
fi
finish
