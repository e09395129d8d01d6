#!/bin/sh
# green-explore finds each buggy program of tests/explore/ within a bounded
# number of runs, in random and in PCT mode, with separate and with copied
# stacks, and the failing seed replays exactly: every re-run fails the same
# way with the same decision hash (docs/testing-your-program.md).  The
# failure found is the bug, never a timeout (a spinner that livelocked
# PCT: spin-steal), and every ending prints the hash: an assertion, a
# fault in a program with its own signal thread (segv-sigthread), a
# timeout.
. "$GREEN_SRC/tests/lib.sh"
X="$B/bin/green-explore"
for stacks in separate copied; do
	for mode in random pct; do
		for p in $GREEN_EXPLORE_PROGS; do
			find_and_replay "$p ($mode, $stacks)" "$B/tests/explore/$p-green" $mode $stacks
		done
	done
done
# a run stopped for its timeout reports first: green-explore sends SIGXCPU,
# green prints the hash and the steps and dies of it
out=$($X -q -n 1 --timeout 2 -- $GREEN_RUN "$B/tests/prog/livelock-green")
if printf '%s\n' "$out" | grep -q 'failed: timed out' &&
   printf '%s\n' "$out" | grep -q '| green: GREEN_SCHED=random:1 steps=[0-9]* hash=' &&
   printf '%s\n' "$out" | grep -Eq 'decision hash [0-9a-f]{16}$'; then
	pass "a timed-out run reports its schedule hash and steps"
else
	fail "a timed-out run: no report"
	printf '%s\n' "$out" | head -8
fi
# a fault the program does not handle and _exit print it too
for how in trap _exit; do
	msg=$(GREEN_SCHED=random:1 $GREEN_RUN "$B/tests/prog/endings-green" $how 2>&1 >/dev/null)
	case $msg in
	*"green: GREEN_SCHED=random:1 steps="*" hash="*) pass "an ending by $how prints the schedule line" ;;
	*) fail "an ending by $how: $msg" ;;
	esac
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
# A failing one is refused as well: a program built with the system's
# compiler that aborts, and the same built for 1:1 (their failure is not
# a schedule's; green-explore once reported it as a find).
misuse="$B/tests/prog/nothreads-1to1 $B/tests/prog/no-such-program"
if [ -z "$GREEN_RUN" ]; then
	scratch explore
	printf '#include <stdlib.h>\nint main(void) { abort(); }\n' >"$T/fails.c"
	${GREEN_TARGET_CC:-cc} -o "$T/fails-cc" "$T/fails.c" && misuse="$misuse $T/fails-cc"
	"$B/bin/green-cc" --threads=1to1 -o "$T/fails-1to1" "$T/fails.c" && misuse="$misuse $T/fails-1to1"
else
	misuse=
fi
for p in $misuse; do
	msg=$($X -q -n 20 -- $GREEN_RUN "$p" 2>&1)
	st=$?
	case $st:$msg in
	2:"green-explore: $p is not a green program: "*"nothing was explored" | \
	2:"green-explore: cannot run "*"No such file or directory")
		[ "$(printf '%s\n' "$msg" | wc -l)" = 1 ] &&
			pass "green-explore on ${p##*/}: exit 2, one line" ||
			fail "green-explore on ${p##*/}: more than one line: $msg" ;;
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
