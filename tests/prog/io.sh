#!/bin/sh
# io.sh — programs whose blocking I/O must park only the calling thread:
# the 500-connection echo server (clients in the same process, then in a
# child process) and the system calls of its reads, a program killed
# while reading its terminal, and getaddrinfo against a slow DNS server.
. "$GREEN_SRC/tests/lib.sh"
P=$B/tests/prog
T=$(mktemp -d "${TMPDIR:-/tmp}/green-io.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
TO=
command -v timeout >/dev/null 2>&1 && TO="timeout 300"

# run PROGRAM ARGS...: a built program (through $GREEN_RUN); output in
# $T/out and $T/err, status in $st
run() {
	run_host $GREEN_RUN "$@"
}

# run_host COMMAND ARGS...: the same for a command of the build machine
run_host() {
	$TO "$@" >"$T/out" 2>"$T/err"
	st=$?
}

expect() {   # WHAT WANT-STATUS WANT-STDOUT
	if [ "$st" = "$2" ] && [ "$(cat "$T/out")" = "$3" ]; then
		pass "$1"
	else
		fail "$1: status $st, want $2; output:"
		sed 's/^/    | /' "$T/out" "$T/err"
	fi
}

# ---- echo server: 500 connections x 1000 messages, every byte checked
for m in green 1to1; do
	for where in inproc fork; do
		run "$P/echo-$m" $where 500 1000
		expect "echo-$m $where 500x1000" 0 "echo ok"
		sed 's/^/    /' "$T/err"
	done
done

# ---- reads that found nothing wait first (src/sysio/fdkind.c): in the
# echo's round trips, each side reads again at once after it wrote, and
# finds nothing.  With ticks, the reads of a connection wait for
# readiness first after two such misses, and try first one read in 16:
# under strace, a recvfrom that answers EAGAIN about twice per 16 round
# trips, where without ticks (no guesses) it is about two per round trip.
if [ -n "${GREEN_RUN:-}" ] || [ -z "${STRACE:-}" ]; then
	echo "SKIP: echo's reads under strace (no strace, or an emulated CPU)"
else
	trips=4000
	for q in default 0; do
		if [ $q = default ]; then set --; else set -- env GREEN_QUANTUM_MS=$q; fi
		run_host "$@" "$STRACE" -f -qq -e trace=recvfrom -o "$T/strace" "$P/echo-green" inproc 20 200
		misses=$(grep -c 'recvfrom(.*EAGAIN' "$T/strace")
		if [ $q = default ]; then
			ok=$((misses * 4 < trips)) want="under a quarter of the $trips round trips"
		else
			ok=$((misses >= trips)) want="at least one per round trip, $trips"
		fi
		if [ "$st" = 0 ] && [ "$(cat "$T/out")" = "echo ok" ] && [ $ok = 1 ]; then
			pass "echo-green 20x200, GREEN_QUANTUM_MS $q: $misses reads answered EAGAIN ($want)"
		else
			fail "echo-green 20x200, GREEN_QUANTUM_MS $q: status $st, output '$(cat "$T/out")', $misses reads answered EAGAIN (want $want)"
		fi
	done
fi

# ---- a killed program leaves its terminal's flags as they were (the
# driver runs the green program through $GREEN_RUN too: the kernel cannot
# exec a program for an emulated CPU)
run "$P/ptykill-1to1" $GREEN_RUN "$P/ptykill-green"
expect "ptykill: terminal flags after SIGKILL" 0 "flags unchanged"

# ---- getaddrinfo against a slow local DNS server (private namespaces)
if command -v unshare >/dev/null 2>&1 && command -v ip >/dev/null 2>&1 &&
   unshare -rmn true 2>/dev/null; then
	echo "nameserver 127.0.0.1" >"$T/resolv.conf"
	for m in green 1to1; do
		run_host unshare -rmn sh -c "ip link set lo up && mount --bind '$T/resolv.conf' /etc/resolv.conf && exec $GREEN_RUN '$P/slowdns-$m'"
		expect "slowdns-$m" 0 "resolved 10.1.2.3
computed meanwhile: yes"
	done
else
	echo "SKIP: slowdns (needs unshare -rmn and ip)"
fi

# ---- the descriptor kinds of this kernel (information for docs/io.md)
$GREEN_RUN "$P/fdkinds-1to1" | sed 's/^/    /'

finish
