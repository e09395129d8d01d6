#!/bin/sh
# budget.sh — the fast paths' instruction budgets (tests/tools/budget/budgets.txt),
# and the system calls of an echo round trip (at the end):
# each operation of tests/tools/budget/ops.c is counted by valgrind's cachegrind
# (user-space instructions, exact whatever the machine's load) in a run of
# N repetitions and a run of none, with ticks off, and the difference over
# N is held against its budget.  Prints the table; fails on any count
# above its budget; says which are still above their targets.
#
# The budgets hold for static programs, which ops-green is.  With
# BUDGET_LINKS="static dynamic pie" (by hand: it triples the run) the same
# operations are also counted built against green's libc.so (green-cc
# --dynamic) and as a static PIE (-static-pie), and printed beside, not
# held to the budgets (docs/dynamic.md).
. "$GREEN_SRC/tests/lib.sh"
[ -z "$GREEN_RUN" ] || { echo "SKIP: cachegrind cannot run a cross build under $GREEN_RUN"; exit 77; }
[ -n "$VALGRIND" ] || { echo "SKIP: valgrind not installed"; exit 77; }
N=${BUDGET_N:-20000}
scratch budget

# instructions of one run: count OPS-BINARY STACKS OPERATION REPEATS
count() {
	GREEN_QUANTUM_MS=0 GREEN_STACKS=$2 $VALGRIND --tool=cachegrind --cache-sim=no \
		--cachegrind-out-file=/dev/null "$1" "$3" "$4" 2>&1 >/dev/null |
		sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}

links=${BUDGET_LINKS:-static}
other=
for l in $links; do
	case $l in
	static) ;;
	dynamic|pie)
		o=$T/ops-$l
		f=--dynamic; [ $l = pie ] && f=-static-pie
		"$B/bin/green-cc" $f -O2 -o "$o" "$S/tests/tools/budget/ops.c" &&
		"$B/bin/green-cc" $f -O2 -DOPS_TLS -o "$o-tls" "$S/tests/tools/budget/ops.c" || exit 1
		other="$other $l" ;;
	*) echo "budget.sh: BUDGET_LINKS names static, dynamic and pie" >&2; exit 2 ;;
	esac
done
printf '%-9s %-6s %-9s %8s %7s %7s' operation tcb stacks counted budget target
for l in $other; do printf ' %8s' "$l"; done
echo
grep -v '^#' "$S/tests/tools/budget/budgets.txt" | grep -v '^ *$' |
{
	st=0
	while read -r op tcb stacks budget target what; do
		bin=$B/tests/tools/budget/ops-green
		[ "$tcb" = own ] && bin=$B/tests/tools/budget/ops-tls-green
		a=$(count "$bin" "$stacks" "$op" "$N") b=$(count "$bin" "$stacks" "$op" 0)
		if [ -z "$a" ] || [ -z "$b" ]; then
			fail "$op ($tcb TCB, $stacks stacks): cachegrind gave no count"
			st=1
			continue
		fi
		per=$(( (a - b + N / 2) / N ))
		note=
		[ "$per" -gt "$target" ] && note="  above its target"
		[ "$per" -gt "$budget" ] && { note="  OVER BUDGET"; st=1; }
		printf '%-9s %-6s %-9s %8s %7s %7s' "$op" "$tcb" "$stacks" "$per" "$budget" "$target"
		for l in $other; do
			o=$T/ops-$l
			[ "$tcb" = own ] && o=$o-tls
			a=$(count "$o" "$stacks" "$op" "$N") b=$(count "$o" "$stacks" "$op" 0)
			printf ' %8s' "$(( (a - b + N / 2) / N ))"
		done
		echo "$note"
	done
	exit $st
}
st=$?
[ $st = 0 ] && echo "PASS: every operation within its budget" || echo "FAIL: an operation over its budget"

# System calls per echo round trip against an event loop's: ops.c's echok
# (two threads, one byte each way, at the default quantum, over ends
# green does not know as a pair: the kernel tells it who is ready) and
# echoloop (the same round trips made by one thread with an epoll loop:
# write, epoll_wait, read on each side), each a run of N minus a run of
# none, strace -f -c.  green may make at most ECHO_SYSCALLS_PCT per cent
# more: a read tries first only while the descriptor's reads have found
# data (fdtab.h), an idle wait is one system call, ticks are the CPU
# clock's.  (Under GREEN_QUANTUM_MS=0 every read tries first, by design:
# 8 where the loop makes 6, docs/fastpaths.md.)  And ops.c's echo, over
# a pair green made: its 2 writes and 2 reads alone (ECHO_PEER_CALLS),
# each write waking the other end's reader with no wait on the kernel,
# one of them handing it the CPU (src/sysio/peer.c), at most
# ECHO_SYSCALLS_PCT per cent more.
ECHO_SYSCALLS_PCT=1
ECHO_PEER_CALLS=4
STRACE=${STRACE:-$(command -v strace)}
calls() {
	"$STRACE" -f -c -o "$T/calls" "$B/tests/tools/budget/ops-green" "$1" "$2" >/dev/null 2>&1 &&
		awk '$NF == "total" { print $4 }' "$T/calls"
}
# hundredths of a system call per round trip: per OP
per() {
	local a b
	a=$(calls "$1" "$N") b=$(calls "$1" 0)
	[ -n "$a" ] && [ -n "$b" ] && echo $(( (a - b) * 100 / N ))
}
hund() { echo "$(($1 / 100)).$(printf %02d $(($1 % 100)))"; }
if [ -z "$STRACE" ]; then
	echo "SKIP: system calls per echo round trip (no strace)"
else
	g=$(per echok) l=$(per echoloop) p=$(per echo)
	if [ -z "$g" ] || [ -z "$l" ] || [ -z "$p" ] || [ "$l" = 0 ]; then
		echo "FAIL: system calls per echo round trip: strace gave no count"; st=1
	else
		if [ $((g * 100)) -le $((l * (100 + ECHO_SYSCALLS_PCT))) ]; then
			echo "PASS: system calls per echo round trip: $(hund "$g"), the epoll loop $(hund "$l") (at most +$ECHO_SYSCALLS_PCT %)"
		else
			echo "FAIL: system calls per echo round trip: $(hund "$g"), the epoll loop $(hund "$l") (at most +$ECHO_SYSCALLS_PCT %)"; st=1
		fi
		if [ "$p" -le $((ECHO_PEER_CALLS * (100 + ECHO_SYSCALLS_PCT))) ]; then
			echo "PASS: system calls per echo round trip over a pair green made: $(hund "$p") (at most $ECHO_PEER_CALLS +$ECHO_SYSCALLS_PCT %)"
		else
			echo "FAIL: system calls per echo round trip over a pair green made: $(hund "$p") (at most $ECHO_PEER_CALLS +$ECHO_SYSCALLS_PCT %)"; st=1
		fi
	fi
fi
exit $st
