#!/bin/sh
# summary.sh BUILDDIR — one closing line over every Check run of `make check`.
b=$1
p=0 f=0
for log in "$b"/tests/*.log; do
	[ -f "$log" ] || continue
	line=$(grep -E '^[0-9]+%: Checks: [0-9]+' "$log" | tail -1)
	[ -n "$line" ] || continue
	c=$(echo "$line" | sed -E 's/.*Checks: ([0-9]+).*/\1/')
	fl=$(echo "$line" | sed -E 's/.*Failures: ([0-9]+).*/\1/')
	e=$(echo "$line" | sed -E 's/.*Errors: ([0-9]+).*/\1/')
	p=$((p + c - fl - e)); f=$((f + fl + e))
done
for trs in "$b"/tests/*.trs; do
	[ -f "$trs" ] || continue
	grep -q '^:test-result: PASS' "$trs" && continue
	grep -q '^:test-result: SKIP' "$trs" && continue
	f=$((f + 1))
done
echo "checks: $p passed, $f failed"
[ "$f" = 0 ]
