#!/bin/sh
# explore-table.sh --strategies BUILDDIR [CAMPAIGNS [PROGRAMS [CAP]]] — the
# strategies' table of docs/testing-your-program.md: every buggy program
# of tests/explore/ built as recommended (`green-cc --sched-points=all`),
# and for each strategy of green-explore (random, PCT of depth 3, POS,
# class, and the default mix of the four) the runs it needs to find the
# bug: median (min-max) over CAMPAIGNS (default 5) campaigns with base
# seeds 1, 1001, 2001, ...; CAP+ (CAP default 2000) where a campaign did
# not find it in CAP runs.  A run that times out (a loaded machine, a
# schedule that livelocks) is passed over, not counted as a find.
#
# explore-table.sh BUILDDIR [CAMPAIGNS [PROGRAMS]] — the runs-to-find table of
# docs/testing-your-program.md: for each buggy program of tests/explore/,
# the median number of runs green-explore needs to find it, in random and
# in PCT mode, as the tests build it and built with
# `green-cc --sched-points=memory` (where the CPU has that mode), over
# CAMPAIGNS (default 20) campaigns with different base seeds (1, 1001,
# 2001, ...); then proof of replay: in each stack mode, the first failing
# seed of a campaign from seed 1 re-run 100 times, and whether every
# re-run failed with the same decision hash.  PROGRAMS (quoted, default
# all) limits both tables to some; CAMPAIGNS 0 gives the second only.
set -eu
all="lost-update atomicity order lock-order lost-wakeup exit-uaf depth2 depth3 spin-steal clock-loop segv-sigthread counter publish first-touch stack-share aba two-stage four-preempt"
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

if [ "${1:-}" = --strategies ]; then
	b=${2:?usage: explore-table.sh --strategies BUILDDIR [CAMPAIGNS [PROGRAMS [CAP]]]}
	n=${3:-5}
	progs=${4:-$all}
	cap=${5:-2000}
	kinds=assert,signal,deadlock,race,exit
	x=$b/bin/green-explore
	src=$(cd "$(dirname "$0")/.." && pwd)/tests/explore
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/explore-table.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	cellv() { if [ "${1%.*}" -gt "$cap" ]; then echo "$cap+"; else echo "$1"; fi; }
	echo "| program | random | PCT d=3 | POS | class | default (mix) |"
	echo "|---|---|---|---|---|---|"
	for p in $progs; do
		"$b/bin/green-cc" --sched-points=all -std=gnu11 -O1 -g -o "$tmp/$p" "$src/$p.c"
		row="| $p"
		for st in random pct pos class mix; do
			vals=$(i=0; while [ $i -lt "$n" ]; do
				out=$("$x" -q -n "$cap" --seed $((i * 1000 + 1)) --strategy=$st --until "$kinds" -- "$tmp/$p" || true)
				if printf '%s\n' "$out" | grep -q '^green-explore: seed '; then
					printf '%s\n' "$out" | sed -n 's/^green-explore: \([0-9]*\) runs,.*/\1/p'
				else
					echo $((cap + 1))
				fi
				i=$((i + 1))
			done)
			med=$(printf '%s\n' "$vals" | median)
			lo=$(printf '%s\n' "$vals" | sort -n | head -1)
			hi=$(printf '%s\n' "$vals" | sort -n | tail -1)
			if [ "$lo" -gt "$cap" ]; then row="$row | $cap+"
			else row="$row | $(cellv "$med") ($lo-$(cellv "$hi"))"; fi
		done
		echo "$row |"
	done
	exit 0
fi
b=${1:?usage: explore-table.sh BUILDDIR [CAMPAIGNS [PROGRAMS]]}
n=${2:-20}
x=$b/bin/green-explore
progs=${3:-"lost-update atomicity order lock-order lost-wakeup exit-uaf depth2 depth3 spin-steal clock-loop segv-sigthread counter publish"}
src=$(cd "$(dirname "$0")/.." && pwd)/tests/explore
mem=$(mktemp -d "${TMPDIR:-/tmp}/explore-table.XXXXXX")
trap 'rm -rf "$mem"' EXIT
# the tests' builds (counter's and publish's own are memory ones: their
# block-point builds stand in), and memory-point builds of every program
bin() {
	case $1 in
	counter) echo "$b/tests/explore/counter-blocks" ;;
	publish) echo "$mem/$1-blocks" ;;
	*) echo "$b/tests/explore/$1-green" ;;
	esac
}
for p in $progs; do
	"$b/bin/green-cc" --sched-points=memory -std=gnu11 -O1 -g -o "$mem/$p" "$src/$p.c" 2>/dev/null || true
done
"$b/bin/green-cc" --sched-points -std=gnu11 -O1 -g -o "$mem/publish-blocks" "$src/publish.c"

runs_to_find() {   # binary opt base -> runs, or 2000 if not found in 2000
	out=$("$x" -q -n 2000 --seed "$3" $2 -- "$1" || true)
	printf '%s\n' "$out" | grep -q '^green-explore: seed ' || { echo 2000; return; }
	printf '%s\n' "$out" | sed -n 's/^green-explore: \([0-9]*\) runs,.*/\1/p'
}

cell() {   # binary opt -> "median (min-max)"
	vals=$(i=0; while [ $i -lt "$n" ]; do runs_to_find "$1" "$2" $((i * 1000 + 1)); i=$((i + 1)); done)
	med=$(printf '%s\n' "$vals" | median)
	lo=$(printf '%s\n' "$vals" | sort -n | head -1)
	hi=$(printf '%s\n' "$vals" | sort -n | tail -1)
	echo "$med ($lo-$hi)"
}

if [ "$n" -gt 0 ]; then
	echo "| program | random | PCT d=3 | random, memory points | PCT d=3, memory points |"
	echo "|---|---|---|---|---|"
	for p in $progs; do
		row="| $p"
		for opt in "" "--pct"; do row="$row | $(cell "$(bin $p)" "$opt")"; done
		for opt in "" "--pct"; do
			if [ -x "$mem/$p" ]; then row="$row | $(cell "$mem/$p" "$opt")"; else row="$row | n/a"; fi
		done
		echo "$row |"
	done
	echo
fi
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
