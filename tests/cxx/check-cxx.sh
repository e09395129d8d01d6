#!/bin/sh
# check-cxx.sh — the C++ tests (tests/cxx/, built by green-c++; docs/cxx.md)
# in every mode: green cooperative, green with a 1 ms quantum, green with
# copied stacks, green under valgrind memcheck, and 1:1 (kernel threads).
# Each program checks itself and exits non-zero on a failure;
# iostream's output is checked by the program run again with --check;
# uncaught must end in its terminate handler (status 3).  Where green
# links dynamically, every program once more built with green-c++
# --dynamic and once -static-pie (docs/dynamic.md): no frame table is
# registered there, the unwinder finds each object's through
# _dl_find_object.
. "$GREEN_SRC/tests/lib.sh"
X=$B/tests/cxx
if [ ! -x "$X/threads-green" ]; then
	echo "SKIP: green-c++ is not built here (native x86_64 only: docs/cxx.md)"
	exit 77
fi
scratch cxx
timeout_of 300
PROGS="threads tls sync async except prodcons iostream uncaught unwind backward exitrace"

# run MODE PROG: one program in one mode
run() {
	mode=$1 p=$2 bin=$X/$2-green
	case $mode in
	cooperative) set -- env GREEN_QUANTUM_MS=0 ;;
	quantum1) set -- env GREEN_QUANTUM_MS=1 ;;
	copied) set -- env GREEN_STACKS=copied GREEN_QUANTUM_MS=0 ;;
	valgrind) set -- env $VALGRIND $VG_FLAGS ;;
	1to1) bin=$X/$p-1to1; set -- env ;;
	dynamic) bin=$X/$p-dyn; set -- env ;;
	pie) bin=$X/$p-pie; set -- env ;;
	esac
	$TO "$@" "$bin" >"$T/out" 2>"$T/err"
	st=$?
	case $p:$st in
	uncaught:3) grep -q '^terminate called in the thread$' "$T/out" && st=0 ;;
	uncaught:*) st=1 ;;
	iostream:0) mv "$T/out" "$T/lines"; $TO "$bin" --check "$T/lines" >"$T/out" 2>>"$T/err" || st=1 ;;
	esac
	if [ $st = 0 ]; then
		pass "$mode: $p ($(grep -c '^ok ' "$T/out") ok$(grep -c '^skip ' "$T/out" | sed 's/^0$//; s/..*/, & skipped/'))"
	else
		fail "$mode: $p (status $st)"
		tail -5 "$T/out" | sed 's/^/    out| /'
		tail -20 "$T/err" | sed 's/^/    err| /'
	fi
}

modes="cooperative quantum1 copied valgrind 1to1"
[ -n "$VALGRIND" ] || { echo "NOTE: valgrind not installed: that mode is left out"; modes="cooperative quantum1 copied 1to1"; }
[ -x "$X/threads-dyn" ] && modes="$modes dynamic pie"
for mode in $modes; do
	for p in $PROGS; do
		run $mode $p
	done
done
# a thread that ends while main runs exit(): under seeded schedules it
# ends inside exit's destructors (one of these seeds aborted in the
# thread's unwinding before), both stack modes
bad=
for stacks in separate copied; do
	for s in random:1 random:2 random:3 random:4 random:5 random:6 pct:1 pct:2 pct:3 pct:4; do
		$TO env GREEN_SCHED=$s GREEN_STACKS=$stacks "$X/exitrace-green" >"$T/out" 2>"$T/err" ||
			bad="$bad $s/$stacks (status $?)"
	done
done
if [ -z "$bad" ]; then
	pass "exitrace: a thread that ends during exit(), 10 schedules, both stack modes"
else
	fail "exitrace failed under:$bad"
	tail -5 "$T/err" | sed 's/^/    err| /'
fi
finish
