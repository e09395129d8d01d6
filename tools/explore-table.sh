#!/bin/sh
# explore-table.sh BUILDDIR [CAMPAIGNS] — the runs-to-find table of
# docs/testing-your-program.md: for each buggy program of tests/explore/,
# the median number of runs green-explore needs to find it, in random and
# in PCT mode, over CAMPAIGNS (default 20) campaigns with different base
# seeds (1, 1001, 2001, ...); then proof of replay: in each stack mode,
# the first failing seed of a campaign from seed 1 re-run 100 times, and
# whether every re-run failed with the same decision hash.
set -eu
b=${1:?usage: explore-table.sh BUILDDIR [CAMPAIGNS]}
n=${2:-20}
x=$b/bin/green-explore
progs="lost-update atomicity order lock-order lost-wakeup exit-uaf depth2 depth3"

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

runs_to_find() {   # prog opt base -> runs, or "-" if not found in 2000
	out=$("$x" -q -n 2000 --seed "$3" $2 -- "$b/tests/explore/$1-green" || true)
	printf '%s\n' "$out" | grep -q '^green-explore: seed ' || { echo 2000; return; }
	printf '%s\n' "$out" | sed -n 's/^green-explore: \([0-9]*\) runs,.*/\1/p'
}

echo "| program | random: median runs (min-max) | PCT d=3: median runs (min-max) |"
echo "|---|---|---|"
for p in $progs; do
	row="| $p"
	for opt in "" "--pct"; do
		vals=$(i=0; while [ $i -lt "$n" ]; do runs_to_find "$p" "$opt" $((i * 1000 + 1)); i=$((i + 1)); done)
		med=$(printf '%s\n' "$vals" | median)
		lo=$(printf '%s\n' "$vals" | sort -n | head -1)
		hi=$(printf '%s\n' "$vals" | sort -n | tail -1)
		row="$row | $med ($lo-$hi)"
	done
	echo "$row |"
done
echo
echo "| program | mode | separate: seed, failed, same hash / 100 | copied: seed, failed, same hash / 100 |"
echo "|---|---|---|---|"
for p in $progs; do
	for opt in "" "--pct"; do
		m=random; [ -n "$opt" ] && m=pct
		row="| $p | $m"
		# each stack mode finds its own first failing seed and replays it:
		# the decision sequence can differ between the modes (a copied
		# thread's descriptor comes from malloc, whose lock is a
		# scheduling point), so a seed is a schedule of one mode
		for st in separate copied; do
			out=$(GREEN_STACKS=$st "$x" -q -n 2000 $opt -- "$b/tests/explore/$p-green" || true)
			seed=$(printf '%s\n' "$out" | sed -n 's/^green-explore: seed \([0-9]*\),.*/\1/p')
			if [ -z "$seed" ]; then row="$row | not found in 2000"; continue; fi
			steps=$(printf '%s\n' "$out" | sed -n 's/.*GREEN_SCHED=pct:[0-9]*:[0-9]*:\([0-9]*\),.*/\1/p')
			ropt=; [ -n "$opt" ] && ropt="--pct --steps $steps"
			rep=$(GREEN_STACKS=$st "$x" -q --replay "$seed" -n 100 $ropt -- "$b/tests/explore/$p-green" || true)
			f=$(printf '%s\n' "$rep" | sed -n 's/^green-explore: 100 runs, \([0-9]*\) failures.*/\1/p')
			h=$(printf '%s\n' "$rep" | grep -q 'identical hash' && echo 100 || echo "differ")
			row="$row | $seed, $f, $h"
		done
		echo "$row |"
	done
done
