#!/usr/bin/env bash
# forward.sh — stress the fork + exec + alarm + forwarded-signal shape
# (tests/stress/forwarder.c running tests/stress/target.c): does the child
# ever outlive its forwarder?  Not part of make check (docs/testing.md).
#
#   tests/stress/forward.sh BUILDDIR [RUNS]
#
# Builds both programs with green-cc (and, for comparison, with
# green-cc --threads=1to1).  Each run starts the forwarder with a time
# limit of 2 s on a target of 8 threads, and sends the forwarder SIGTERM
# (or SIGINT) after a random delay of 0-20 ms (every fifth run: no
# signal, the time limit ends it).  A run fails when the forwarder has
# not exited after 10 s (a hang) or the target is still alive 2 s after
# the forwarder exited (an orphan); either is reported with the run's
# number, delay and signal, and the leftover processes are killed.
# Prints the counts per build, and exits 1 if any run failed.
set -u
builddir=$(cd "${1:?usage: forward.sh BUILDDIR [RUNS]}" && pwd)
runs=${2:-200}
here=$(cd "$(dirname "$0")" && pwd)
out=$builddir/stress
mkdir -p "$out"
for mode in green 1to1; do
	for p in forwarder target; do
		"$builddir/bin/green-cc" --threads=$mode -O2 -o "$out/$p-$mode" "$here/$p.c" || exit 1
	done
done
t0=$(date +%s)
echo "forward.sh: $runs runs per build, load $(cut -d' ' -f1-3 /proc/loadavg)"
bad=0
for mode in green 1to1; do
	hangs=0 orphans=0 ok=0
	for i in $(seq "$runs"); do
		pidfile=$out/child.pid
		rm -f "$pidfile"
		delay=$(awk -v r=$RANDOM 'BEGIN { printf "%.3f", (r % 21) / 1000 }')
		sig=TERM
		[ $((i % 2)) = 0 ] && sig=INT
		"$out/forwarder-$mode" 2 "$pidfile" "$out/target-$mode" 8 &
		fw=$!
		if [ $((i % 5)) != 0 ]; then
			sleep "$delay"
			kill -$sig $fw 2>/dev/null
		else
			sig=none
		fi
		for _ in $(seq 100); do kill -0 $fw 2>/dev/null || break; sleep 0.1; done
		child=$(cat "$pidfile" 2>/dev/null)
		if kill -0 $fw 2>/dev/null; then
			hangs=$((hangs + 1))
			echo "  $mode run $i: the forwarder hangs (signal $sig after ${delay}s; child ${child:-?})"
			kill -9 $fw ${child:+$child} 2>/dev/null
			wait $fw 2>/dev/null
			continue
		fi
		wait $fw 2>/dev/null
		alive=no
		if [ -n "$child" ]; then
			for _ in $(seq 20); do kill -0 "$child" 2>/dev/null || break; sleep 0.1; done
			kill -0 "$child" 2>/dev/null && alive=yes
		fi
		if [ $alive = yes ]; then
			orphans=$((orphans + 1))
			echo "  $mode run $i: the child $child outlived its forwarder (signal $sig after ${delay}s): $(grep -E '^(State|SigBlk|SigCgt|SigPnd|ShdPnd)' /proc/$child/status 2>/dev/null | tr '\n' ' ')"
			kill -9 "$child" 2>/dev/null
		else
			ok=$((ok + 1))
		fi
	done
	echo "$mode: $runs runs, $ok clean, $orphans orphans, $hangs hangs"
	[ $((orphans + hangs)) = 0 ] || bad=1
done
echo "forward.sh: $(($(date +%s) - t0)) s, load $(cut -d' ' -f1-3 /proc/loadavg)"
exit $bad
