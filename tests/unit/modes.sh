#!/bin/sh
# modes.sh tests/modes/NAME.mode — one row of the mode matrix
# (tests/unit/modes.txt): its program run under its environment, with its
# arguments, as its "how" column says.  make check runs it once per row
# (MODE_LOG_COMPILER, tests/include.am); by hand:
#   GREEN_BUILD=build GREEN_SRC=. sh tests/unit/modes.sh copied
# Exit status: 0 passed, 77 skipped (with the reason), else failed.
. "$GREEN_SRC/tests/lib.sh"
TABLE=$S/tests/unit/modes.txt
name=${1:?usage: modes.sh NAME or modes/NAME.mode}
name=${name##*/}
name=${name%.mode}

# the table's rows, comment and blank lines left out, columns trimmed
rows() {
	awk -F'|' '/^[ \t]*(#|$)/ { next }
		{ for (i = 1; i <= NF; i++) gsub(/^[ \t]+|[ \t]+$/, "", $i)
		  print $1 "|" $2 "|" $3 "|" $4 "|" $5 "|" $6 }' "$TABLE"
}

# every row is a test of this build (GREEN_MODES: MODE_TESTS in
# tests/include.am), and every test a row: a row not in MODE_TESTS would
# never run
if [ -n "${GREEN_MODES:-}" ]; then
	table=$(rows | cut -d'|' -f1)
	listed=$(for t in $GREEN_MODES; do t=${t##*/}; echo "${t%.mode}"; done)
	bad=
	for n in $table; do
		printf '%s\n' "$listed" | grep -qx "$n" || bad="$bad $n (only in modes.txt)"
	done
	for n in $listed; do
		printf '%s\n' "$table" | grep -qx "$n" || bad="$bad $n (only in MODE_TESTS)"
	done
	if [ -n "$bad" ]; then
		echo "modes.sh: tests/unit/modes.txt and MODE_TESTS in tests/include.am differ:$bad"
		exit 1
	fi
fi

row=$(rows | awk -F'|' -v n="$name" '$1 == n')
if [ -z "$row" ]; then
	echo "modes.sh: no row '$name' in tests/unit/modes.txt"
	exit 1
fi
IFS='|' read -r _ prog how envs args why <<EOF
$row
EOF
[ "$envs" = - ] && envs=
[ "$args" = - ] && args=
P=$B/tests/$prog

times=1 retry= valgrind= TO=
for w in $how; do
	case $w in
	-) ;;
	native) [ -z "$GREEN_RUN" ] || { echo "SKIP: $name runs natively only, not under $GREEN_RUN"; exit 77; } ;;
	emulated) [ -n "$GREEN_RUN" ] || { echo "SKIP: $name runs under an emulator only"; exit 77; } ;;
	valgrind)
		[ -z "$GREEN_RUN" ] || { echo "SKIP: valgrind cannot run a cross build under $GREEN_RUN"; exit 77; }
		[ -n "${VALGRIND:-}" ] || { echo "SKIP: valgrind not installed"; exit 77; }
		valgrind=yes ;;
	x[0-9]*) times=${w#x} ;;
	retry) retry=yes ;;
	timeout=*) timeout_of "${w#timeout=}" ;;
	*) echo "modes.sh: row $name: unknown word '$w' in its how column"; exit 1 ;;
	esac
done
if [ ! -x "$P" ]; then
	echo "modes.sh: row $name: $P is not built"
	exit 1
fi
echo "mode $name: $why"
echo "---- ${envs:+$envs }${TO:+$TO }${valgrind:+valgrind }tests/$prog${args:+ $args}"

# once ARGS...: one run of the row's program with ARGS as its arguments
once() {
	if [ -n "$valgrind" ]; then
		env $envs $VALGRIND $VG_FLAGS "$P" "$@"
	else
		env $envs $TO $GREEN_RUN "$P" "$@"
	fi
}

scratch "mode-$name"
case $envs in
*GREEN_SCHED=*)
	# each forked test prints its seed line at exit: keep the log short
	once $args > "$T/log" 2>&1
	st=$?
	grep -v '^green: GREEN_SCHED=' "$T/log"
	exit $st ;;
esac
if [ "$times" -gt 1 ]; then
	i=0
	while [ $i -lt "$times" ]; do
		i=$((i + 1))
		once $args > "$T/log" 2>&1 ||
			{ cat "$T/log"; echo "FAIL: $name: run $i of $times failed"; exit 1; }
	done
	echo "PASS: $name: $times runs"
	exit 0
fi
if [ -z "$retry" ] || [ -z "$GREEN_RUN" ]; then
	once $args
	exit $?
fi

# retry, under an emulator: a first run whose only errors are Check
# timeouts is followed by one more run of the suites that timed out, and
# the test counts by that; a failed assertion, or a second timeout,
# still fails.  (qemu-user now and then never returns from a kernel
# thread's pthread_join or aio wait: twice in CI on m68k, in a different
# test each time, never in 44 runs of the tls suite alone.)
once $args > "$T/first.log" 2>&1
st=$?
if [ $st = 0 ]; then
	cat "$T/first.log"
	exit 0
fi
# the lines of failed tests: FILE:LINE:F|E:SUITE:TEST:I: message
grep -E '^[^:]+:[0-9]+:[FE]:' "$T/first.log" > "$T/failed" || true
if [ ! -s "$T/failed" ] || grep -vq 'Test timeout expired' "$T/failed"; then
	cat "$T/first.log"
	exit 1
fi
# the first run's summary line is marked so that tools/summary.sh counts
# only its passes: its timeouts are counted by the second run
sed -E 's/^([0-9]+%: Checks: .*)$/\1 (timeouts rerun below)/' "$T/first.log"
suites=$(cut -d: -f4 "$T/failed" | sort -u)
echo "---- only timeouts under $GREEN_RUN: the suites" $suites "once more"
once $suites
