#!/bin/sh
# race.sh — what `green-cc --race` costs (docs/race.md#cost).
#
#   bench/race.sh BUILDDIR
#
# Builds the bench program (bench/*.c), bench/race-msort.c and
# tests/cxx/prodcons.cc four ways (the bench's ping-pong is run for
# green's two only): green plain, green --race, and with the
# system's gcc and glibc plain and with gcc's -fsanitize=thread (skipped
# where gcc cannot link it), and runs each workload once per build pinned
# to one CPU (BENCH_CPU, default the highest online one), printing CPU
# time (user + system, from /usr/bin/time) and maximum resident size.
# prodcons runs ten times per build, its figure being the total over ten.
# bench_sink, which bursty's workers write without synchronisation on
# purpose, is the one race reported: it is suppressed.
set -eu
[ $# = 1 ] || { echo "usage: $0 BUILDDIR" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
b=$(cd "$1" && pwd)
out=$b/bench/race
mkdir -p "$out"
cpu=${BENCH_CPU:-$(($(getconf _NPROCESSORS_ONLN) - 1))}
bench_srcs="$src/bench/common.c $src/bench/micro.c $src/bench/system.c $src/bench/workloads.c $src/bench/pshared.c"
cxx="-O2 -std=gnu++17 -I$src/tests/cxx"

"$b/bin/green-cc" -O2 -o "$out/bench-plain" $bench_srcs
"$b/bin/green-cc" --race -O2 -o "$out/bench-race" $bench_srcs
gcc -O2 -o "$out/bench-glibc" $bench_srcs -lpthread -lrt
gcc -O2 -fsanitize=thread -o "$out/bench-tsan" $bench_srcs -lpthread -lrt 2>/dev/null || :
"$b/bin/green-cc" -O2 -o "$out/msort-plain" "$src/bench/race-msort.c"
"$b/bin/green-cc" --race -O2 -o "$out/msort-race" "$src/bench/race-msort.c"
gcc -O2 -o "$out/msort-glibc" "$src/bench/race-msort.c" -lpthread
gcc -O2 -fsanitize=thread -o "$out/msort-tsan" "$src/bench/race-msort.c" -lpthread 2>/dev/null || :
if [ -x "$b/bin/green-c++" ]; then
	"$b/bin/green-c++" $cxx -o "$out/prodcons-plain" "$src/tests/cxx/prodcons.cc"
	"$b/bin/green-c++" --race $cxx -o "$out/prodcons-race" "$src/tests/cxx/prodcons.cc"
	g++ -D__GREEN_THREADS__=0 $cxx -o "$out/prodcons-glibc" "$src/tests/cxx/prodcons.cc" -lpthread
	g++ -D__GREEN_THREADS__=0 -fsanitize=thread $cxx -o "$out/prodcons-tsan" \
		"$src/tests/cxx/prodcons.cc" -lpthread 2>/dev/null || :
fi
echo 'race:bench_sink' > "$out/supp"

# m LABEL CMD...: one line, "LABEL cpu=SECONDS rss=KB"
m() {
	l=$1
	shift
	GREEN_RACE_SUPPRESSIONS=$out/supp BENCH_TRIALS=3 \
		/usr/bin/time -f "%U %S %M" -o "$out/time" taskset -c "$cpu" "$@" >/dev/null 2>"$out/err" ||
		{ echo "$l: failed"; tail -3 "$out/err"; return 0; }
	set -- $(tail -1 "$out/time")
	echo "$l cpu=$(echo "$1 + $2" | bc) rss=$3"
}
uptime
# (ping-pong's glibc builds are left out: kernel switches make them a
# minute each, and say nothing of the detectors)
for v in plain race; do m "pingpong 1 2000000 0 $v" "$out/bench-$v" pingpong 1 2000000 0; done
for w in "shared 16 200000" "shared 250 10000"; do
	for v in plain race glibc tsan; do [ -x "$out/bench-$v" ] && m "$w $v" "$out/bench-$v" $w; done
done
for v in plain race glibc tsan; do
	[ -x "$out/msort-$v" ] && m "msort $v" "$out/msort-$v"
	[ -x "$out/prodcons-$v" ] && m "prodcons x10 $v" sh -c "for i in 1 2 3 4 5 6 7 8 9 10; do '$out/prodcons-$v' || exit 1; done"
done
uptime
