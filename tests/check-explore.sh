#!/bin/sh
# The Check suites under seeded schedules (GREEN_SCHED, docs/scheduler.md):
# a correct program never fails, whatever the interleaving.  Tests of an
# exact schedule or of elapsed real time skip themselves (explored() and
# ticking() in tests/testutil.h).  Every strategy, both stack modes
# (four schedules natively, two under qemu-user).
. "$GREEN_SRC/tests/lib.sh"
rc=0
schedules="random:1 pct:1 pos:2 class:4:copied pct:5:3:copied"
# under an emulator, one of each kind and stack mode: each run of the
# runner takes minutes there
[ -n "$GREEN_RUN" ] && schedules="random:1 pct:5:3:copied"
for s in $schedules; do
	case $s in
	*:copied) stacks=copied; s=${s%:copied} ;;
	*) stacks=separate ;;
	esac
	echo "== GREEN_SCHED=$s GREEN_STACKS=$stacks"
	# each forked test prints its seed line at exit: keep the log short
	GREEN_DEBUG=checks GREEN_SCHED=$s GREEN_STACKS=$stacks $GREEN_RUN "$B/tests/runner-green" 2>&1 |
		grep -v '^green: GREEN_SCHED=' > "$B/tests/check-explore.out"
	cat "$B/tests/check-explore.out"
	grep -q '^100%: Checks: [0-9]*, Failures: 0, Errors: 0' "$B/tests/check-explore.out" || rc=1
done
exit $rc
