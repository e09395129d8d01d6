#!/bin/sh
# The SPARC port's test: the CPU contract on its own, in every build that
# exists (64-bit; 32-bit V8+ and V8 with the multilib compiler), each run
# under its qemu-user (GREEN_RUN, GREEN_RUN32) in a cross build.
B=${GREEN_BUILD:?run through make check}
fails=0
run() {   # run RUNNER PROGRAM
	if [ ! -x "$2" ]; then
		echo "SKIP: ${2##*/} (not built)"
		return
	fi
	if $1 "$2"; then
		echo "PASS: ${2##*/}"
	else
		echo "FAIL: ${2##*/}"
		fails=$((fails + 1))
	fi
}
run "${GREEN_RUN:-}" "$B/tests/switch-test"
run "${GREEN_RUN32:-}" "$B/tests/switch-test-v8plus"
run "${GREEN_RUN32:-}" "$B/tests/switch-test-v8"
[ $fails = 0 ]
