#!/bin/sh
# green-explore finds each buggy program of tests/explore/ within a bounded
# number of runs, in random and in PCT mode, with separate and with copied
# stacks, and the failing seed replays exactly: every re-run fails the same
# way with the same decision hash (docs/testing-your-program.md).
. "$GREEN_SRC/tests/lib.sh"
X="$B/bin/green-explore"
RUNS=300
for stacks in separate copied; do
	for mode in random pct; do
		opt=; [ $mode = pct ] && opt=--pct
		for p in $GREEN_EXPLORE_PROGS; do
			bin="$B/tests/explore/$p-green"
			out=$(GREEN_STACKS=$stacks $X -q -n $RUNS $opt -- $GREEN_RUN $bin)
			seed=$(printf '%s\n' "$out" | sed -n 's/^green-explore: seed \([0-9]*\),.*/\1/p')
			if [ -z "$seed" ]; then
				fail "$p ($mode, $stacks): not found in $RUNS runs"
				printf '%s\n' "$out" | tail -3
				continue
			fi
			steps=$(printf '%s\n' "$out" | sed -n 's/.*GREEN_SCHED=pct:[0-9]*:[0-9]*:\([0-9]*\),.*/\1/p')
			ropt=; [ $mode = pct ] && ropt="--pct --steps $steps"
			rep=$(GREEN_STACKS=$stacks $X -q --replay $seed -n 5 $ropt -- $GREEN_RUN $bin)
			if printf '%s\n' "$rep" | grep -q 'identical hash' &&
			   ! printf '%s\n' "$rep" | grep -q 'passed x'; then
				pass "$p ($mode, $stacks): seed $seed fails, replays 5/5 with the same hash"
			else
				fail "$p ($mode, $stacks): seed $seed does not replay"
				printf '%s\n' "$rep"
			fi
		done
	done
done
# the 1:1 build ignores GREEN_SCHED, says so once, and runs
msg=$(GREEN_SCHED=random:1 $GREEN_RUN "$B/tests/prog/nothreads-1to1" 2>&1 >/dev/null)
if [ "$(printf '%s\n' "$msg" | grep -c 'GREEN_SCHED is ignored')" = 1 ]; then
	pass "1:1 build: GREEN_SCHED ignored with one note"
else
	fail "1:1 build: no single note about GREEN_SCHED: $msg"
fi
# misuse: a program that is not green (1:1 here; plain cc alike) and a
# missing one explore nothing, and say so in one line with exit status 2
# (natively: under an emulator the program green-explore runs is the
# emulator, which exists and is not green)
misuse="$B/tests/prog/nothreads-1to1 $B/tests/prog/no-such-program"
[ -z "$GREEN_RUN" ] || misuse=
for p in $misuse; do
	msg=$($X -q -n 20 -- $GREEN_RUN "$p" 2>&1)
	st=$?
	case $st:$msg in
	2:"green-explore: $p is not a green program: "*"nothing was explored" | \
	2:"green-explore: cannot run "*"No such file or directory")
		pass "green-explore on ${p##*/}: exit 2, $(printf '%s\n' "$msg" | wc -l) line" ;;
	*) fail "green-explore on ${p##*/}: exit status $st: $msg" ;;
	esac
done
# the debug: line green-explore prints runs gdb with the extension loaded
# (it adds the safe path of the script the program names)
GDB=${GDB:-}
if [ -z "$GREEN_RUN" ] && [ -n "$GDB" ] && command -v "$GDB" >/dev/null 2>&1; then
	line=$($X -q -n 50 -- "$B/tests/explore/order-green" | sed -n 's/^debug: *//p')
	cmd=$(printf '%s\n' "$line" | sed "s|gdb |$GDB -nx -batch -ex 'info auto-load python-scripts' |
		s| -ex run | -ex run -ex 'info green-threads' |")
	out=$(cd "$B" && sh -c "$cmd" 2>&1 </dev/null)
	if printf '%s\n' "$out" | grep -Eq '^Yes +.*/green-gdb\.py' &&
	   printf '%s\n' "$out" | grep -Eq '^\* +[0-9]+ '; then
		pass "the printed debug: line loads the extension"
	else
		fail "the printed debug: line: $line"
		printf '%s\n' "$out" | sed 's/^/    | /'
	fi
fi
# a malformed value is named and ignored
msg=$(GREEN_SCHED=pct:1:99 $GREEN_RUN "$B/tests/explore/order-green" 2>&1 >/dev/null)
case $msg in
*"ignoring GREEN_SCHED=pct:1:99"*) pass "malformed GREEN_SCHED rejected by name" ;;
*) fail "malformed GREEN_SCHED: $msg" ;;
esac
# a seed beyond 2^64-1 is malformed, not saturated; 2^64-1 is a seed
msg=$(GREEN_SCHED=random:18446744073709551616 $GREEN_RUN "$B/tests/explore/order-green" 2>&1 >/dev/null)
case $msg in
*"ignoring GREEN_SCHED=random:18446744073709551616"*) pass "a seed above 2^64-1 is rejected" ;;
*) fail "seed 2^64: $msg" ;;
esac
msg=$(GREEN_SCHED=random:18446744073709551615 $GREEN_RUN "$B/tests/explore/order-green" 2>&1 >/dev/null)
case $msg in
*"GREEN_SCHED=random:18446744073709551615 steps="*) pass "seed 2^64-1 is accepted" ;;
*) fail "seed 2^64-1: $msg" ;;
esac
finish
