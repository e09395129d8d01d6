#!/bin/sh
# summary.sh BUILDDIR [TEST...] — one closing line over every Check run of
# `make check` (of the named tests only, e.g. tests/modes/core.mode, when
# given: the logs of tests not run this time may be stale).
b=$1
shift
# every test's log: the one beside each test result (.trs) of the tree
[ $# -gt 0 ] || set -- $(cd "$b" && find tests src -name '*.trs' | sort)
p=0 f=0
for t do
	log=${t%.trs}
	log=${log%.log}
	log=${log%.mode}.log   # the mode rows' logs: tests/modes/NAME.log
	case $log in /*) ;; *) log=$b/$log ;; esac
	[ -f "$log" ] || continue
	# every Check run in the log (a script may run the runner more than once)
	# (a run marked "timeouts rerun below", the 1to1 row of tests/unit/modes.txt,
	# counts only its passes: the rerun that follows counts what timed out)
	for line in $(grep -E '^[0-9]+%: Checks: [0-9]+' "$log" | sed -E 's/.*Checks: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+)(.*)/\1:\2:\3:\4/; s/:[^:0-9][^:]*rerun below.*$/:r/; s/:$/:-/; s/ /_/g'); do
		c=${line%%:*} rest=${line#*:} fl=${rest%%:*} rest=${rest#*:} e=${rest%%:*} mark=${rest#*:}
		p=$((p + c - fl - e))
		[ "$mark" = r ] || f=$((f + fl + e))
	done
	trs=${log%.log}.trs
	[ -f "$trs" ] || continue
	grep -q '^:test-result: PASS' "$trs" && continue
	grep -q '^:test-result: SKIP' "$trs" && continue
	f=$((f + 1))
done
echo "checks: $p passed, $f failed"
[ "$f" = 0 ]
