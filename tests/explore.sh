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
# a malformed value is named and ignored
msg=$(GREEN_SCHED=pct:1:99 $GREEN_RUN "$B/tests/explore/order-green" 2>&1 >/dev/null)
case $msg in
*"ignoring GREEN_SCHED=pct:1:99"*) pass "malformed GREEN_SCHED rejected by name" ;;
*) fail "malformed GREEN_SCHED: $msg" ;;
esac
finish
