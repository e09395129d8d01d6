#!/bin/sh
# cores.sh — one server on every core (docs/servers.md, "On every
# core"): 2 and 3 green server processes sharing one port, each way
# (SO_REUSEPORT; fork after listen), driven by tests/prog/cores.c: every
# request answered, every server served some, each stopped by SIGTERM
# and exited 0, none left behind.  After fork, every connection wakes
# every server and all but one find the queue empty: their accept()
# must wait again (src/sysio/listener.c), neither sleep in the kernel
# (the client would wait for ever: the timeout) nor spin (counted under
# strace).  Then the server under valgrind memcheck.
. "$GREEN_SRC/tests/lib.sh"
P=$B/tests/prog/cores-green
T=$(mktemp -d "${TMPDIR:-/tmp}/green-cores.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
TO=
command -v timeout >/dev/null 2>&1 && TO="timeout 120"
VALGRIND=${VALGRIND:-}
STRACE=${STRACE:-}

# the server processes the last run named (stderr "pid N") still alive
leftover() {
	for p in $(sed -n 's/^pid //p' "$T/err"); do
		if kill -0 "$p" 2>/dev/null; then
			echo "$p"
			kill -9 "$p" 2>/dev/null
		fi
	done
}

# one MODE SERVERS CONNECTIONS [PREFIX...]: one run, checked
one() {
	mode=$1 n=$2 c=$3
	shift 3
	$TO "$@" $GREEN_RUN "$P" "$mode" "$n" "$c" >"$T/out" 2>"$T/err"
	st=$?
	left=$(leftover)
	if [ "$st" = 0 ] && grep -q '^cores ok' "$T/out" && [ -z "$left" ]; then
		return 0
	fi
	fail "cores $mode $n $c${1:+ under $1}: status $st, server processes left: ${left:-none}; output:"
	sed 's/^/    | /' "$T/out" "$T/err"
	return 1
}

# rounds MODE SERVERS CONNECTIONS ROUNDS: as many runs (the race of
# every connection between the servers is new each time)
rounds() {
	k=0
	while [ $k -lt "$4" ]; do
		one "$1" "$2" "$3" || return
		k=$((k + 1))
	done
	pass "cores $1, $2 servers, $3 connections: $4 runs; the last: $(tail -n1 "$T/err"); $(grep '^server' "$T/err" | tr '\n' ';' | sed 's/;$//')"
}

# under an emulator, fewer rounds: each is many times slower
r=10
[ -n "$GREEN_RUN" ] && r=2
for n in 2 3; do
	rounds reuseport $n 100 2
	rounds fork $n 100 $r
done

# no busy loop: after fork, the accepts that found the queue empty: about
# one per connection and server (the winner's next try included, and the
# first tries); at most twice that
if [ -n "$STRACE" ] && [ -z "$GREEN_RUN" ]; then
	if one fork 3 100 "$STRACE" -f -qq -e trace=accept,accept4 -o "$T/strace"; then
		conns=$(sed -n 's/^\([0-9]*\) connections.*/\1/p' "$T/err")
		empty=$(grep -c 'EAGAIN' "$T/strace")
		took=$(grep -c '= [0-9]' "$T/strace")
		most=$((2 * 3 * (conns + 1)))
		if [ "$empty" -le $most ] && [ "$took" -ge "$conns" ]; then
			pass "cores fork 3 under strace: $conns connections, $took accepted, $empty accepts found the queue empty (at most $most)"
		else
			fail "cores fork 3 under strace: $conns connections, $took accepted, $empty accepts found the queue empty (want at most $most)"
		fi
	fi
else
	echo "SKIP: accepts under strace (no strace, or an emulated CPU)"
fi

if [ -n "$VALGRIND" ] && [ -z "$GREEN_RUN" ]; then
	for m in fork reuseport; do
		one $m 2 40 env GREEN_VALGRIND=1 $VALGRIND $VG_FLAGS && pass "cores $m 2 40 under valgrind memcheck"
	done
else
	echo "SKIP: cores under valgrind (valgrind not installed, or a cross build)"
fi
finish
