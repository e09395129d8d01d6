#!/bin/sh
# spin.sh — threads beside spinners: the wake-up latency rows
# (bench/wakeup.c) and the work-stealing executor row (bench/steal.c).
#
#   bench/spin.sh wakeup|steal GREEN_CC OUTDIR RAWDIR "PIN COMMAND" yes|no(quick)
#
# Called by bench/run.sh, one call per phase.  Builds each program three
# ways into OUTDIR (green-cc, green-cc --threads=1to1, and the host's cc
# -pthread for glibc; each only when missing or older than its source or
# green's libc), then runs it pinned (PIN) for four columns: green with
# separate stacks, green with copied stacks, musl's 1:1 and glibc.
#
# wakeup: pipe with 1 and 10 spinners, signal and timer with 10, ROUNDS
# rounds each (200; 50 --quick), into RAWDIR/COL.wakeup.EVENTN.
# steal: 4 and 8 workers, 100,000 tasks of about 1 µs (25,000 --quick),
# in ROUNDS rounds (3; 1 --quick), each round running every column once
# one after the other, appended to RAWDIR/COL.steal.wN (one set of V
# lines per round).  A run that fails or passes its time limit leaves
# "# failed: WHY" in its file.  bench/spin_tables.py reads them.
set -eu
what=$1 cc=$2 out=$3 raw=$4 pin=$5 quick=$6
src=$(cd "$(dirname "$0")" && pwd)
lib=$(dirname "$cc")/../lib
hostcc=${CC:-cc}

build() {   # build PROGRAM: OUTDIR/PROGRAM-{green,1to1,glibc}
	p=$1
	for b in green 1to1 glibc; do
		bin=$out/$p-$b
		[ -x "$bin" ] && [ ! "$src/$p.c" -nt "$bin" ] &&
			[ ! "$lib/green/libc.a" -nt "$bin" ] && [ ! "$lib/1to1/libc.a" -nt "$bin" ] && continue
		case $b in
		green) "$cc" -O2 -Wall -o "$bin" "$src/$p.c" ;;
		1to1) "$cc" --threads=1to1 -O2 -Wall -o "$bin" "$src/$p.c" ;;
		glibc) $hostcc -O2 -Wall -pthread -o "$bin" "$src/$p.c" ;;
		esac
	done
}

# one LIMIT FILE PROGRAM ARGS...: every column once, output appended to
# RAWDIR/COL.FILE (the arguments are plain words: no quoting needed)
one() {
	lim=$1 f=$2 p=$3
	shift 3
	for c in sep cop k11 glibc; do
		case $c in
		sep) run="$out/$p-green" ;;
		cop) run="env GREEN_STACKS=copied $out/$p-green" ;;
		k11) run="$out/$p-1to1" ;;
		glibc) run="$out/$p-glibc" ;;
		esac
		rc=0
		# shellcheck disable=SC2086
		timeout "$lim" $pin $run "$@" >>"$raw/$c.$f" 2>"$raw/$c.$f.err" || rc=$?
		if [ $rc = 124 ]; then
			echo "# failed: did not finish within $lim s" >>"$raw/$c.$f"
		elif [ $rc != 0 ]; then
			echo "# failed: $(head -n 1 "$raw/$c.$f.err")" >>"$raw/$c.$f"
		fi
	done
}

case $what in
wakeup)
	build wakeup
	rounds=200
	[ "$quick" = yes ] && rounds=50
	echo "rounds $rounds" >"$raw/wakeup.info"
	for e in pipe:1 pipe:10 signal:10 timer:10; do
		echo "==> wake-up latency: ${e%:*}, ${e#*:} spinners" >&2
		one 120 "wakeup.${e%:*}${e#*:}" wakeup "${e%:*}" "${e#*:}" $rounds
	done
	;;
steal)
	build steal
	tasks=100000 rounds=3
	[ "$quick" = yes ] && tasks=25000 rounds=1
	echo "tasks $tasks" >"$raw/steal.info"
	i=0
	while [ $i -lt $rounds ]; do
		for w in 4 8; do
			echo "==> work stealing: $w workers, $tasks tasks, round $((i + 1)) of $rounds" >&2
			one 300 "steal.w$w" steal $w $tasks
		done
		i=$((i + 1))
	done
	;;
*)
	echo "usage: $0 wakeup|steal GREEN_CC OUTDIR RAWDIR PIN yes|no" >&2
	exit 2
	;;
esac
