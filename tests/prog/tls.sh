#!/bin/sh
# tls.sh — the three-thread `__thread` counter (tests/prog/tlscount.c)
# prints "1000 1000 1000 0" in every mode: separate and copied stacks,
# cooperative and at a 1 ms quantum, and on kernel threads (1:1).  In the
# SPARC overlay, which cannot make `__thread` per green thread, the
# program's first pthread_create must refuse with ENOTSUP and say why on
# stderr (docs/ports.md).
. "$GREEN_SRC/tests/lib.sh"
P=$B/tests/prog
T=$(mktemp -d "${TMPDIR:-/tmp}/green-tls.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
TO=
command -v timeout >/dev/null 2>&1 && TO="timeout 60"

# check WHAT WANT-STATUS WANT-OUT [ENV...]
check() {
	what=$1 want_st=$2 want_out=$3
	shift 3
	$TO env "$@" $GREEN_RUN "$P/tlscount-green" >"$T/out" 2>"$T/err"
	st=$?
	if [ "$st" = "$want_st" ] && [ "$(cat "$T/out")" = "$want_out" ]; then
		pass "$what"
	else
		fail "$what: status $st, output '$(cat "$T/out")', want $want_st, '$want_out'"
		sed 's/^/    | /' "$T/err"
	fi
}

if [ -n "${GREEN_OVERLAY_LIB:-}" ]; then
	check "tlscount refused by the overlay" 3 "pthread_create: ENOTSUP"
	if grep -q "__thread variables" "$T/err"; then
		pass "the refusal says why"
	else
		fail "the refusal says why: stderr was '$(cat "$T/err")'"
	fi
	finish
	exit
fi
for mode in separate copied; do
	check "tlscount, $mode stacks, cooperative" 0 "1000 1000 1000 0" GREEN_STACKS=$mode GREEN_QUANTUM_MS=0
	check "tlscount, $mode stacks, 1 ms quantum" 0 "1000 1000 1000 0" GREEN_STACKS=$mode GREEN_QUANTUM_MS=1
done
if $TO $GREEN_RUN "$P/tlscount-1to1" >"$T/out" 2>&1 && [ "$(cat "$T/out")" = "1000 1000 1000 0" ]; then
	pass "tlscount, 1:1"
else
	fail "tlscount, 1:1: '$(cat "$T/out")'"
fi
finish
