#!/bin/sh
# echo.sh — the thread-per-connection table: bench/echo.c (500
# connections x 1000 round trips of 32 bytes in one process) in green
# with separate and copied stacks on each GREEN_IO backend, and in 1:1,
# against bench/echo-epoll.c, a hand-written level-triggered epoll loop
# doing the same work on one thread; and bench/iomux.c, one idle round of
# the multiplexer against the size of the wait set, per backend.
#
#   bench/echo.sh GREEN_CC OUTDIR RAWDIR "PIN COMMAND" yes|no(quick)
#
# Called by bench/run.sh.  Each round runs every configuration once, one
# after the other, so the ratios hold on a loaded machine; a
# configuration's runs append their rates to RAWDIR/echo.NAME, the
# crossover's to RAWDIR/iomux.BACKEND.THREADS (bench/echo_tables.py
# reads them).
set -eu
cc=$1 out=$2 raw=$3 pin=$4 quick=$5
src=$(cd "$(dirname "$0")" && pwd)
build() {   # build BINARY SOURCE FLAGS...
	b=$1 s=$2
	shift 2
	lib=$(dirname "$cc")/../lib
	[ -x "$b" ] && [ ! "$src/$s" -nt "$b" ] && [ ! "$src/../tests/prog/echo.c" -nt "$b" ] &&
		[ ! "$lib/green/libc.a" -nt "$b" ] && [ ! "$lib/1to1/libc.a" -nt "$b" ] && return 0
	"$cc" "$@" -O2 -Wall -o "$b" "$src/$s"
}
build "$out/echo-green" echo.c
build "$out/echo-1to1" echo.c --threads=1to1
build "$out/echo-epoll" echo-epoll.c --threads=1to1
build "$out/iomux" iomux.c
if [ "$quick" = yes ]; then
	rounds=1 size="100 300" sizes="16 64 256" hops=5000
else
	rounds=3 size="500 1000" sizes="4 16 32 64 128 256 1024" hops=20000
fi
one() {   # one NAME COMMAND...: append the rate, or a failure note
	name=$1
	shift
	if timeout 300 $pin "$@" >/dev/null 2>"$raw/echo.tmp"; then
		sed -n 's/.*: \([0-9]*\) round trips\/s$/\1/p' "$raw/echo.tmp" >>"$raw/echo.$name"
	else
		echo "# failed: $(head -n 1 "$raw/echo.tmp")" >>"$raw/echo.$name"
	fi
}
echo "size $size" >"$raw/echo.info"
i=0
while [ $i -lt $rounds ]; do
	echo "==> echo round $((i + 1)) of $rounds" >&2
	one loop "$out/echo-epoll" $size
	one k11 "$out/echo-1to1" inproc $size
	for st in separate copied; do
		for io in auto select poll epoll; do
			e=; [ $io != auto ] && e="GREEN_IO=$io"
			one "$st.$io" env GREEN_STACKS=$st $e "$out/echo-green" inproc $size
		done
	done
	i=$((i + 1))
done
echo "==> multiplexer crossover" >&2
for n in $sizes; do
	for io in select poll epoll; do
		timeout 120 $pin env GREEN_IO=$io "$out/iomux" "$n" $hops 2>/dev/null |
			sed -n 's/.*: \([0-9]*\) hops\/s$/\1/p' >>"$raw/iomux.$io.$n" || true
	done
done
rm -f "$raw/echo.tmp"
