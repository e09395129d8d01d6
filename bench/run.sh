#!/bin/sh
# run.sh — run the thread micro-benchmarks in both modes and tabulate them.
#
#   bench/run.sh BUILDDIR [--quick]
#
# Builds BUILDDIR/bench/micro-green and micro-1to1 from bench/micro.c with
# BUILDDIR/bin/green-cc when they are missing or older than the source,
# runs green as is and 1:1 pinned to one CPU (taskset -c 0, so both modes
# run on a uniprocessor), and writes BUILDDIR/bench/tables.md, which is
# also printed.  --quick shortens every trial to a fifth (BENCH_SCALE=0.2).
# BENCH_SCALE and BENCH_TRIALS in the environment are passed on otherwise.
set -eu

usage() { echo "usage: $0 BUILDDIR [--quick]" >&2; exit 2; }

[ $# -ge 1 ] || usage
builddir=$1
shift
scale=${BENCH_SCALE:-1.0}
for a in "$@"; do
	case $a in
	--quick) scale=0.2 ;;
	*) usage ;;
	esac
done

srcdir=$(cd "$(dirname "$0")/.." && pwd)
builddir=$(cd "$builddir" && pwd)
green_cc=$builddir/bin/green-cc
src=$srcdir/bench/micro.c
out=$builddir/bench
[ -x "$green_cc" ] || { echo "run.sh: $green_cc not found (is green built?)" >&2; exit 1; }
mkdir -p "$out"

# Build a binary unless it is present and newer than the source.
build() {   # build BINARY MODE
	if [ ! -x "$1" ] || [ "$src" -nt "$1" ]; then
		echo "==> building $1" >&2
		"$green_cc" --threads="$2" -O2 -Wall -o "$1" "$src"
	fi
}
build "$out/micro-green" green
build "$out/micro-1to1" 1to1

pin="taskset -c 0"
pinned="pinned to CPU 0 (taskset -c 0)"
if ! command -v taskset >/dev/null 2>&1; then
	echo "run.sh: taskset not found; 1:1 runs unpinned" >&2
	pin=
	pinned="NOT pinned (taskset missing)"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

export BENCH_SCALE="$scale"
echo "==> green (BENCH_SCALE=$scale)" >&2
"$out/micro-green" >"$tmp/green"
echo "==> 1:1 $pinned" >&2
$pin "$out/micro-1to1" >"$tmp/1to1"

metrics="yield_busy yield_notbusy mutex_uncontended pingpong create_join self"
for f in green 1to1; do
	for m in $metrics; do
		grep -q "^$m " "$tmp/$f" || { echo "run.sh: micro-$f printed no $m" >&2; cat "$tmp/$f" >&2; exit 1; }
	done
done

trials=$(sed -n 's/^# metric.*trials=\([0-9]*\).*/\1/p' "$tmp/green")
cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
[ -n "$cpu" ] || cpu=$(uname -m)
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
cc=${GREEN_CC_CC:-gcc}
ccver=$("$cc" --version 2>/dev/null | head -n 1)

{
	echo "# green micro-benchmarks"
	echo
	echo "- CPU: $cpu ($ncpu online)"
	echo "- Kernel: $(uname -r)"
	echo "- Compiler: $ccver (-O2, static, via green-cc)"
	echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- Trials: median, min and max over $trials trials of ~$(awk -v s="$scale" 'BEGIN { printf "%g", 30 * s }') ms each (BENCH_SCALE=$scale)"
	echo "- green: default settings; 1:1: stock musl kernel threads, $pinned"
	echo
	echo "| metric | green median (min–max) ns | 1:1 pinned median (min–max) ns | ratio 1:1/green |"
	echo "|---|---:|---:|---:|"
	for m in $metrics; do
		g=$(grep "^$m " "$tmp/green")
		k=$(grep "^$m " "$tmp/1to1")
		echo "$g $k" | awk '
			function fmt(x) {
				if (x < 10) return sprintf("%.2f", x)
				if (x < 1000) return sprintf("%.1f", x)
				return sprintf("%.0f", x)
			}
			{
				ratio = $2 > 0 ? fmt($6 / $2) : "n/a"
				printf "| %s | %s (%s–%s) | %s (%s–%s) | %s |\n",
					$1, fmt($2), fmt($3), fmt($4), fmt($6), fmt($7), fmt($8), ratio
			}'
	done
} >"$tmp/tables.md"

mv "$tmp/tables.md" "$out/tables.md"
cat "$out/tables.md"
