# lib.sh — shared helpers of the test scripts (sourced).
set -u
B=${GREEN_BUILD:?run through make check}
S=${GREEN_SRC:?run through make check}
# GREEN_RUN prefixes every run of a built program: qemu-CPU in a cross build
GREEN_RUN=${GREEN_RUN:-}
# an emulated CPU is many times slower: give Check's per-test timeouts room
if [ -n "$GREEN_RUN" ]; then
	CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-6}
	export CK_TIMEOUT_MULTIPLIER
fi
fails=0 passes=0
pass() { passes=$((passes + 1)); echo "PASS: $*"; }
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }
finish() {
	echo "$passes passed, $fails failed"
	[ "$fails" = 0 ]
}
# valgrind for static musl programs: malloc is intercepted by symbol
VG_FLAGS="-q --error-exitcode=99 --soname-synonyms=somalloc=NONE --leak-check=no"
# need_gdb [remote]: end the script with SKIP (77) where the gdb extension
# cannot be tested: no gdb, or a gdb without Python; in a cross build,
# unless the script can debug under the emulator's gdb stub ("remote":
# gdb_remote below), which also wants gdb-multiarch and a port that links
# the extension (not the SPARC overlay, docs/debugging.md)
need_gdb() {
	if [ -n "$GREEN_RUN" ]; then
		if [ "${1:-}" != remote ]; then
			echo "SKIP: the gdb extension (this script runs gdb natively, not under $GREEN_RUN)"
			exit 77
		fi
		if [ ! -f "$B/lib/green/green-gdb.o" ]; then
			echo "SKIP: the gdb extension (this port does not link it: docs/debugging.md)"
			exit 77
		fi
		case ${GREEN_RUN%% *} in
		*/qemu-*|qemu-*) ;;
		*) echo "SKIP: the gdb extension ($GREEN_RUN has no gdb stub)"; exit 77 ;;
		esac
		GDB=gdb-multiarch
	fi
	if [ -z "${GDB:-}" ] || ! command -v "$GDB" >/dev/null 2>&1; then
		echo "SKIP: the gdb extension (${GDB:-gdb} is not installed)"
		exit 77
	fi
	if ! "$GDB" -nx -batch -ex 'python print("py-ok")' 2>/dev/null | grep -q py-ok; then
		echo "SKIP: the gdb extension ($GDB has no Python)"
		exit 77
	fi
}
# gdb_remote GDB-ARGS... --args PROGRAM ARGS...: as gdb GDB-ARGS --args
# PROGRAM ARGS, but the program runs under the emulator's gdb stub
# ($GREEN_RUN -g SOCKET, a Unix socket: no port to collide with another
# program's) and gdb attaches to it: "-ex run" becomes "target remote
# SOCKET" and "continue".  gdb is started once the socket exists.
gdb_remote() {
	sock=$(mktemp -u "${TMPDIR:-/tmp}/green-gdb.XXXXXX")
	# rotate the arguments once, rewriting "-ex run"; g counts gdb's
	# own, which end at --args (dropped): the rest is the program's
	n=$# i=0 g=-1
	while [ $i -lt $n ]; do
		a=$1
		shift
		i=$((i + 1))
		if [ $g -lt 0 ] && [ "$a" = --args ]; then
			g=$(($# - n + i))   # the gdb arguments appended so far
			continue
		fi
		if [ $g -lt 0 ] && [ "$a" = -ex ] && [ "$1" = run ]; then
			shift
			i=$((i + 1))
			set -- "$@" -ex "target remote $sock" -ex continue
			continue
		fi
		set -- "$@" "$a"
	done
	if [ $g -lt 0 ]; then
		echo "gdb_remote: no --args PROGRAM" >&2
		return 2
	fi
	( shift "$g"; exec $GREEN_RUN -g "$sock" "$@" </dev/null ) &
	qpid=$!
	k=0
	while [ ! -S "$sock" ] && [ $k -lt 600 ] && kill -0 $qpid 2>/dev/null; do
		sleep 0.1   # the emulator creates it before the program's first instruction
		k=$((k + 1))
	done
	( t=$# k=0 prog=
	  while [ $k -lt $t ]; do
		a=$1
		shift
		k=$((k + 1))
		if [ $k -le "$g" ]; then set -- "$@" "$a"; elif [ -z "$prog" ]; then prog=$a; fi
	  done
	  exec "$GDB" "$@" "$prog" )
	st=$?
	kill $qpid 2>/dev/null
	wait $qpid 2>/dev/null
	rm -f "$sock"
	return $st
}
# scratch NAME: a new temporary directory in $T, removed when the script
# exits; TO: a `timeout SECONDS` prefix (empty where there is no timeout)
scratch() {
	T=$(mktemp -d "${TMPDIR:-/tmp}/green-$1.XXXXXX") || exit 1
	trap 'rm -rf "$T"' EXIT
	trap 'exit 1' INT TERM
}
timeout_of() {
	TO=
	command -v timeout >/dev/null 2>&1 && TO="timeout $1"
}
# find_and_replay LABEL PROGRAM random|pct|pos|mix STACKS: green-explore finds a
# failing seed of PROGRAM within EXPLORE_RUNS runs, the failure is the
# program's own (not a timeout) and printed its schedule hash, and the
# seed replays: 5 of 5 re-runs fail with the same decision hash
# (tests/explore/explore.sh, tests/explore/explore-memory.sh)
EXPLORE_RUNS=300
find_and_replay() {
	_opt=--strategy=$3
	_out=$(GREEN_STACKS=$4 "$B/bin/green-explore" -q -n $EXPLORE_RUNS $_opt -- $GREEN_RUN "$2")
	_seed=$(printf '%s\n' "$_out" | sed -n 's/^green-explore: seed \([0-9]*\),.*/\1/p')
	if [ -z "$_seed" ]; then
		fail "$1: not found in $EXPLORE_RUNS runs"
		printf '%s\n' "$_out" | tail -3
		return
	fi
	if printf '%s\n' "$_out" | grep -q '^green-explore: run .* failed: timed out' ||
	   printf '%s\n' "$_out" | grep -q 'decision hash none'; then
		fail "$1: seed $_seed timed out or printed no hash"
		printf '%s\n' "$_out" | head -8
		return
	fi
	_sched=$(printf '%s\n' "$_out" | sed -n 's/^green-explore: seed [0-9]*, GREEN_SCHED=\([^,]*\),.*/\1/p')
	_rep=$(GREEN_STACKS=$4 "$B/bin/green-explore" -q --replay "$_sched" -n 5 -- $GREEN_RUN "$2")
	if printf '%s\n' "$_rep" | grep -q 'identical hash' &&
	   ! printf '%s\n' "$_rep" | grep -q 'passed x'; then
		pass "$1: seed $_seed fails, replays 5/5 with the same hash"
	else
		fail "$1: seed $_seed does not replay"
		printf '%s\n' "$_rep"
	fi
}
