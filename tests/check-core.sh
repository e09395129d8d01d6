#!/bin/sh
# check-core.sh — the core subset, cheap enough for CI on every port
# (under an emulator too): the thread, mutex, cond, time and errno suites
# cooperative, with copied stacks and time-sliced at a 1 ms quantum, then
# time slicing itself with tests/prog/preempt.c's spin, hammer and locks, as
# tests/preempt.sh runs them (its alarm and periodic timing checks are
# native only and stay there).
. "$GREEN_SRC/tests/lib.sh"
TO=
command -v timeout >/dev/null 2>&1 && TO="timeout 300"

# step WHAT [ENV=VALUE...] PROGRAM ARGS...: pass if it exits 0; its
# output goes to the log as it comes
step() {
	what=$1
	shift
	echo "---- $what"
	if env "$@"; then pass "$what"; else fail "$what: exit status $?"; fi
}

R=$B/tests/runner-green
P=$B/tests/prog/preempt-green
suites="thread mutex cond time errno"
step "suites, cooperative" GREEN_QUANTUM_MS=0 $TO $GREEN_RUN "$R" $suites
step "suites, copied stacks" GREEN_STACKS=copied GREEN_QUANTUM_MS=0 $TO $GREEN_RUN "$R" $suites
step "suites, time-sliced at 1 ms" GREEN_QUANTUM_MS=1 $TO $GREEN_RUN "$R" $suites
step "spin (default quantum)" $TO $GREEN_RUN "$P" spin
step "spin (1 ms quantum)" GREEN_QUANTUM_MS=1 $TO $GREEN_RUN "$P" spin
step "hammer 2 s at a 1 ms quantum" GREEN_QUANTUM_MS=1 $TO $GREEN_RUN "$P" hammer 2000
step "locks 2 s at a 1 ms quantum" GREEN_QUANTUM_MS=1 $TO $GREEN_RUN "$P" locks 2000
finish
