#!/bin/sh
# The same suites on kernel threads (stock musl): what green must match.
#
# Under qemu-user (a cross build) stock musl's kernel threads now and then
# never return from a pthread_join or an aio wait: twice in CI on m68k,
# in a different test each time, never in 44 runs of the tls suite alone
# or eight at a time.  That is the emulator's, not a test's, so there a
# suite whose only errors are Check timeouts is run once more, alone, and
# the run counts by that second result; a failed assertion, or a second
# timeout, still fails.  Natively nothing is run twice.
. "$GREEN_SRC/tests/lib.sh"
if [ -z "$GREEN_RUN" ]; then
	exec "$B/tests/runner-1to1"
fi
scratch 1to1
$GREEN_RUN "$B/tests/runner-1to1" > "$T/first.log" 2>&1
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
echo "---- only timeouts under $GREEN_RUN: the suites $suites once more"
exec $GREEN_RUN "$B/tests/runner-1to1" $suites
