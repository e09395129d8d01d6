#!/bin/sh
# soak.sh — run the Check suites again and again, in every scheduling
# mode, until one fails: intermittent failures are races until shown
# otherwise, and one run of make check rarely meets them.
#
#   tests/stress/soak.sh [-r ROUNDS] [-j LANES] [-s SEED] [-m MODES] [SUITE...]
#
# Each round runs the runner (all suites, or those named) once in each
# mode:
#   coop        cooperative (GREEN_QUANTUM_MS=0), separate stacks
#   q1          time-sliced at 1 ms, separate stacks
#   copied      cooperative, copied stacks
#   copied-q1   time-sliced at 1 ms, copied stacks
#   randq       a quantum drawn between 1 and 20 ms for the round, and
#               separate or copied stacks, from SEED and the round number
#   shared-q1   time-sliced at 1 ms, the runner without a TLS segment
#               (runner-green-shared: every thread on one shared TCB)
# MODES is a comma-separated subset (default: $SOAK_MODES, else all six;
# a single round under qemu-user, as make check runs it for a cross port,
# takes copied-q1 and randq only).  The first
# failure stops the run: the round, the mode, its variables and the
# command that re-runs exactly that are printed, and the status is 1.
#
# Under make check (GREEN_BUILD set) it finds the build itself; by hand,
# set GREEN_BUILD to the build directory (default ./build) and, for a
# cross build, GREEN_RUN to the qemu-user command (make check sets both).
# ROUNDS defaults to $SOAK_ROUNDS, else 1; SEED to $SOAK_SEED, else the
# time.  Each run has a time limit (SOAK_TIMEOUT seconds, default 900).
#
# LANES (default $SOAK_JOBS, else 1) runs the rounds in that many lanes
# side by side, lane k taking rounds k, k+LANES, ...: most of a run is
# spent asleep in the tests' own waits, so on two CPUs four lanes finish
# R rounds in about a third of the time, and the load they add is one
# more thing a race may need.  When one lane fails, the others stop
# after their current run; each round is still the same (SEED, round)
# pair whatever lane runs it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=${GREEN_BUILD:-$here/../../build}
RUN=${GREEN_RUN:-}
R=${SOAK_ROUNDS:-1}
SEED=${SOAK_SEED:-$(date +%s)}
MODES=${SOAK_MODES:-coop,q1,copied,copied-q1,randq,shared-q1}
LIMIT=${SOAK_TIMEOUT:-900}
J=${SOAK_JOBS:-1}
while getopts r:j:s:m: o; do
	case $o in
	r) R=$OPTARG ;;
	j) J=$OPTARG ;;
	s) SEED=$OPTARG ;;
	m) MODES=$OPTARG SOAK_MODES=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-j LANES] [-s SEED] [-m MODES] [SUITE...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
# one round under an emulator (make check's, for a cross port): only the
# two modes the other check scripts do not run already; each run of the
# runner takes minutes there
if [ -n "$RUN" ] && [ -z "${SOAK_MODES:-}" ] && [ "$R" = 1 ]; then
	MODES=copied-q1,randq
fi
RUNNER=${SOAK_RUNNER:-$B/tests/runner-green}
[ -x "$RUNNER" ] || { echo "soak.sh: $RUNNER not built (make check builds it)" >&2; exit 2; }
if [ ! -x "$RUNNER-shared" ]; then
	case ",$MODES," in
	*,shared-q1,*)
		if [ -n "${SOAK_MODES:-}" ]; then
			echo "soak.sh: mode shared-q1 needs $RUNNER-shared, which this build has not" >&2
			exit 2
		fi
		MODES=$(echo ",$MODES," | sed 's/,shared-q1,/,/; s/^,//; s/,$//') ;;
	esac
fi
if [ -n "$RUN" ]; then
	CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-6}
	export CK_TIMEOUT_MULTIPLIER
fi
TO=
command -v timeout >/dev/null 2>&1 && TO="timeout $LIMIT"
DIR=$(mktemp -d "${TMPDIR:-/tmp}/green-soak.XXXXXX") || exit 1
trap 'rm -rf "$DIR"' EXIT

# mode_env MODE ROUND: the variables of one run
mode_env() {
	case $1 in
	coop) echo "GREEN_STACKS=separate GREEN_QUANTUM_MS=0" ;;
	shared-q1) echo "GREEN_STACKS=separate GREEN_QUANTUM_MS=1" ;;
	q1) echo "GREEN_STACKS=separate GREEN_QUANTUM_MS=1" ;;
	copied) echo "GREEN_STACKS=copied GREEN_QUANTUM_MS=0" ;;
	copied-q1) echo "GREEN_STACKS=copied GREEN_QUANTUM_MS=1" ;;
	randq)
		# a small LCG over SEED and the round: the same pair gives the same run
		x=$(( (SEED * 1103515245 + $2 * 12345 + 12345) % 2147483648 ))
		[ $x -lt 0 ] && x=$((-x))
		q=$(( x % 20 + 1 ))
		st=separate
		[ $(( (x / 20) % 2 )) = 1 ] && st=copied
		echo "GREEN_STACKS=$st GREEN_QUANTUM_MS=$q" ;;
	*) echo "soak.sh: unknown mode $1" >&2; exit 2 ;;
	esac
}

t0=$(date +%s)
echo "soak: $R round(s) in $J lane(s), modes $MODES, seed $SEED, suites ${*:-all}"

# lane K: rounds K, K+J, ...; its count of good runs in $DIR/runs.K, and
# on a failure the report in $DIR/failed (the first lane to fail writes it)
lane() {
	k=$1 runs=0 round=$1
	shift
	while [ $round -le "$R" ]; do
		for m in $(echo "$MODES" | tr , ' '); do
			[ -e "$DIR/stop" ] && { echo $runs >"$DIR/runs.$k"; return 0; }
			vars=$(mode_env "$m" $round)
			r=$RUNNER
			[ "$m" = shared-q1 ] && r=$RUNNER-shared
			# shellcheck disable=SC2086
			if ! $TO env $vars $RUN "$r" "$@" >"$DIR/log.$k" 2>&1; then
				if mkdir "$DIR/stop" 2>/dev/null; then
					{
						echo "soak: FAILED in round $round, mode $m ($vars), lane $k"
						grep -E '^[^:]+:[0-9]+:[EF]:|^[0-9]+%:' "$DIR/log.$k" | tail -20
						echo "re-run exactly this: env $vars $RUN $r $*"
					} >"$DIR/failed"
				fi
				echo $runs >"$DIR/runs.$k"
				return 1
			fi
			runs=$((runs + 1))
		done
		if [ "$R" -gt 1 ]; then
			echo "soak: round $round done (lane $k, $(($(date +%s) - t0)) s)"
		fi
		round=$((round + J))
	done
	echo $runs >"$DIR/runs.$k"
}

for m in $(echo "$MODES" | tr , ' '); do mode_env "$m" 1 >/dev/null || exit 2; done
pids=
k=1
while [ $k -le "$J" ]; do
	lane $k "$@" &
	pids="$pids $!"
	k=$((k + 1))
done
for p in $pids; do wait "$p"; done
runs=0
for f in "$DIR"/runs.*; do runs=$((runs + $(cat "$f"))); done
if [ -e "$DIR/failed" ]; then
	cat "$DIR/failed"
	echo "soak: $runs good runs before it, in $(($(date +%s) - t0)) s (seed $SEED)"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "soak: $runs runs passed in $(($(date +%s) - t0)) s (seed $SEED)"
echo "$runs passed, 0 failed"
