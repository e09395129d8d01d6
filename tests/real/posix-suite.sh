#!/usr/bin/env bash
# posix-suite.sh — an external conformance run: the Open POSIX Test Suite
# (Debian source package posixtestsuite 1.5.2) against green, stock musl
# (green-cc --threads=1to1) and glibc (gcc -pthread).  Not part of
# `make check`; docs/conformance.md describes it and the last figures.
#
#   tests/real/posix-suite.sh BUILDDIR [TEST-GLOB...]
#
# Fetches the suite into BUILDDIR/src unless it is there, selects the
# conformance tests of the thread, semaphore, thread-signal and AIO
# interfaces (below), compiles each one per build (in parallel), runs
# each binary serially, pinned to CPU 0, under a timeout, and classifies
# the exit status by the suite's codes.  A TEST-GLOB (a shell pattern matched
# against names such as pthread_cond_wait/2-1) runs only the matching
# tests; their rows replace the old ones in the results file.
#
# Output, under BUILDDIR/posix-suite/:
#   results.tsv          test, green, 1to1, glibc: one result word each
#   times.tsv            test, build, milliseconds: the runs of the last call
#   logs/BUILD/TEST.log  the output of every run that did not pass, and
#                        the compiler's output of every build failure
#   bin/BUILD/TEST       the binaries (rebuilt when the source, the
#                        flags or the build's library is newer)
#
# Environment:
#   PTS_BUILDS   the builds to run, of "green 1to1 glibc" (all three)
#   PTS_TIMEOUT  seconds a test may run before it counts as a hang (120;
#                the suite's Makefile allows 240, and one glibc pass
#                takes close to a minute on a loaded machine)
#   PTS_JOBS     parallel compilations (the number of CPUs)
#   PTS_CPU      the CPU the tests are pinned to (0)
# Other variables reach the tests unchanged: GREEN_QUANTUM_MS=0, for
# example, runs the green binaries cooperatively.
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
self=$here/tests/real/posix-suite.sh

PTS_PKG=posixtestsuite
PTS_VER=1.5.2

# The suite's own flags (its Makefile's CFLAGS and its LDFLAGS file).
# -Werror is dropped: a warning that differs between libc headers is not
# a conformance result, while a missing declaration or symbol still fails
# the link.
PTS_CFLAGS="-g -O2 -Wall -D_POSIX_C_SOURCE=200112L -std=gnu99"
# ... and for the AIO tests (aio_*, lio_listio), which use O_*, S_I* and
# sigaction without including their headers (docs/conformance.md)
PTS_AIO_CFLAGS="-D_XOPEN_SOURCE=600 -include fcntl.h -include signal.h -include sys/stat.h"

# The interfaces of the run: conformance/interfaces/<dir> for each glob.
PTS_DIRS="pthread_* sem_* sched_yield sigwait sigtimedwait sigwaitinfo nanosleep aio_* lio_listio"

usage() {
	echo "usage: tests/real/posix-suite.sh BUILDDIR [TEST-GLOB...]" >&2
	exit 2
}

# ---- the internal compile step, run by xargs -P: --compile BUILD TEST
if [ "${1:-}" = --compile ]; then
	build=$2 t=$3
	src=$PTS_SRC/conformance/interfaces/$t.c
	bin=$OUT/bin/$build/$t
	log=$OUT/logs/$build/$t.log
	mkdir -p "$(dirname "$bin")" "$(dirname "$log")"
	case $build in
	green) cc="$B/bin/green-cc" ;;
	1to1) cc="$B/bin/green-cc --threads=1to1" ;;
	glibc) cc="gcc -pthread" ;;
	esac
	rm -f "$bin" "$bin.nomain" "$bin.failed"
	extra=
	case $t in
	aio_*|lio_listio/*)
		# The AIO tests (2004) exit "unsupported" unless
		# _POSIX_ASYNCHRONOUS_IO is exactly 200112L, where every libc
		# of the run now says 200809L: compile a copy that asks for at
		# least 200112L (docs/conformance.md)
		sed 's/_POSIX_ASYNCHRONOUS_IO != 200112L/_POSIX_ASYNCHRONOUS_IO < 200112L/' "$src" >"$bin.c"
		src=$bin.c
		extra=$PTS_AIO_CFLAGS ;;
	esac
	# two steps as the suite's Makefile: a test whose object has no main
	# is a build-only test (compiled, never linked nor run)
	# shellcheck disable=SC2086
	if ! $cc $PTS_CFLAGS $extra -I"$PTS_SRC/include" -c "$src" -o "$bin.o" $PTS_LDFLAGS >"$log" 2>&1; then
		touch "$bin.failed"
	elif ! nm -g "$bin.o" | grep -q ' T main$'; then
		touch "$bin.nomain"
		rm -f "$log"
	elif ! $cc $PTS_CFLAGS "$bin.o" -o "$bin" $PTS_LDFLAGS >>"$log" 2>&1; then
		rm -f "$bin"
		touch "$bin.failed"
	else
		rm -f "$log"
	fi
	rm -f "$bin.o" "$bin.c"
	exit 0
fi

[ $# -ge 1 ] || usage
case $1 in -*) usage ;; esac
B=$(mkdir -p "$1" && cd "$1" && pwd) || exit 1
shift
OUT=$B/posix-suite
PTS_SRC=$B/src/$PTS_PKG-$PTS_VER
BUILDS=${PTS_BUILDS:-green 1to1 glibc}
TIMEOUT=${PTS_TIMEOUT:-120}
JOBS=${PTS_JOBS:-$(nproc)}
CPU=${PTS_CPU:-0}

for b in $BUILDS; do
	case $b in
	green|1to1) [ -x "$B/bin/green-cc" ] ||
		{ echo "posix-suite: no $B/bin/green-cc (./quickstart build first)" >&2; exit 1; } ;;
	glibc) command -v gcc >/dev/null || { echo "posix-suite: no gcc" >&2; exit 1; } ;;
	*) echo "posix-suite: unknown build '$b' in PTS_BUILDS (green 1to1 glibc)" >&2; exit 2 ;;
	esac
done
for tool in timeout taskset nm; do
	command -v $tool >/dev/null || { echo "posix-suite: $tool not found" >&2; exit 1; }
done

# ---- 1. the source
. "$here/tools/debsrc.sh"
if [ ! -d "$PTS_SRC" ]; then
	command -v dpkg-source >/dev/null ||
		{ echo "posix-suite: apt-get source needs dpkg-dev" >&2; exit 1; }
	fetch_source $PTS_PKG "$PTS_SRC"
fi
PTS_LDFLAGS=$(grep -v '^#' "$PTS_SRC/LDFLAGS" | tr '\n' ' ')

# ---- 2. the tests: as the suite's locate-test --execs, NUMBER-NUMBER.c
# (speculative/ subdirectories included, as the suite's Makefile does),
# never *-buildonly*; names relative to conformance/interfaces, no .c
cd "$PTS_SRC/conformance/interfaces" || exit 1
all=$(for d in $PTS_DIRS; do
	[ -d "$d" ] && find "$d" -type f -name '[0-9]*-[0-9]*.c' ! -name '*-buildonly*'
done | sed 's/\.c$//' | sort -V)
tests=()
for t in $all; do
	if [ $# -eq 0 ]; then
		tests+=("$t")
		continue
	fi
	for g in "$@"; do
		# shellcheck disable=SC2254
		case $t in $g) tests+=("$t"); break ;; esac
	done
done
cd "$here" || exit 1
if [ ${#tests[@]} -eq 0 ]; then
	echo "posix-suite: no test matches $*" >&2
	exit 1
fi
say "${#tests[@]} tests, builds: $BUILDS; timeout ${TIMEOUT}s on CPU $CPU"
t_start=$(date +%s)

# ---- 3. compile: only what is missing or older than its inputs
# a build's library: the tree stamps of BUILDDIR, or the host's libc
stamp() {
	case $1 in
	green) echo "$B/lib/green/.tree" ;;
	1to1) echo "$B/lib/1to1/.tree" ;;
	glibc) gcc -print-file-name=libc.a ;;
	esac
}
mkdir -p "$OUT"
printf '%s\n' "$PTS_CFLAGS" "$PTS_LDFLAGS" "$PTS_AIO_CFLAGS" >"$OUT/flags.new"
cmp -s "$OUT/flags.new" "$OUT/flags" || rm -rf "$OUT/bin"
mv "$OUT/flags.new" "$OUT/flags"
todo=$OUT/compile.todo
: >"$todo"
for b in $BUILDS; do
	lib=$(stamp "$b")
	for t in "${tests[@]}"; do
		bin=$OUT/bin/$b/$t src=$PTS_SRC/conformance/interfaces/$t.c
		for f in "$bin" "$bin.nomain" "$bin.failed" ""; do
			[ -n "$f" ] && [ -e "$f" ] && break
		done
		if [ -z "$f" ] || [ "$src" -nt "$f" ] || { [ -e "$lib" ] && [ "$lib" -nt "$f" ]; }; then
			echo "$b $t" >>"$todo"
		fi
	done
done
n=$(wc -l <"$todo")
if [ "$n" -gt 0 ]; then
	say "compiling $n binaries ($JOBS at a time)"
	export B OUT PTS_SRC PTS_CFLAGS PTS_LDFLAGS PTS_AIO_CFLAGS
	xargs -P "$JOBS" -L 1 "$self" --compile <"$todo"
fi
rm -f "$todo"
t_built=$(date +%s)

# ---- 4. run, one test at a time
RUNDIR=$(mktemp -d "${TMPDIR:-/tmp}/posix-suite.XXXXXX") || exit 1
trap 'rm -rf "$RUNDIR"' EXIT
trap 'exit 130' INT TERM

# result BUILD TEST: run it, print the result word
result() {
	local bin=$OUT/bin/$1/$2 log=$OUT/logs/$1/$2.log st
	if [ -e "$bin.failed" ]; then echo build-fail; return; fi
	if [ -e "$bin.nomain" ]; then echo no-main; return; fi
	if [ ! -x "$bin" ]; then echo missing; return; fi
	mkdir -p "$RUNDIR/cwd" "$(dirname "$log")"
	local t0=$(date +%s%N)
	# timeout makes a process group of its own and, when time is up,
	# signals all of it (forked children too); what a test leaves behind
	# when it ends by itself is killed afterwards with the same group
	(cd "$RUNDIR/cwd" && exec timeout -k 5 "$TIMEOUT" taskset -c "$CPU" "$bin") \
		</dev/null >"$RUNDIR/out" 2>&1 &
	local pg=$!
	wait $pg
	st=$?
	kill -KILL -- -$pg 2>/dev/null
	printf '%s\t%s\t%s\n' "$2" "$1" $(( ($(date +%s%N) - t0) / 1000000 )) >>"$RUNDIR/ms"
	rm -rf "$RUNDIR/cwd"
	local r
	case $st in
	0) r=pass ;;
	1) r=fail ;;
	2) r=unresolved ;;
	4) r=unsupported ;;
	5) r=untested ;;
	124|137) r=hang ;;
	*) if [ "$st" -gt 128 ]; then r="crash:$(kill -l $((st - 128)) 2>/dev/null || echo $st)"
	   else r="crash:exit$st"; fi ;;
	esac
	if [ $r = pass ]; then
		rm -f "$log"
	else
		{ echo "# $1 $2: $r (exit status $st)"; cat "$RUNDIR/out"; } >"$log"
	fi
	echo "$r"
}

allbuilds="green 1to1 glibc"
new=$OUT/results.new
: >"$new"
w=0
for t in "${tests[@]}"; do [ ${#t} -gt $w ] && w=${#t}; done
printf "%-${w}s" test; for b in $allbuilds; do printf '  %-12s' "$b"; done; echo
for t in "${tests[@]}"; do
	printf "%-${w}s" "$t"
	row=$t
	for b in $allbuilds; do
		case " $BUILDS " in
		*" $b "*) r=$(result "$b" "$t") ;;
		*) r=- ;;
		esac
		printf '  %-12s' "$r"
		row="$row	$r"
	done
	echo
	echo "$row" >>"$new"
done

# ---- 5. the results file (rows of this run replace older ones) and the table
tsv=$OUT/results.tsv
old=$OUT/results.old
{ [ -f "$tsv" ] && tail -n +2 "$tsv"; } >"$old"
{
	printf 'test\tgreen\t1to1\tglibc\n'
	# a build not run this time ("-") keeps its old result
	awk -F'\t' -v OFS='\t' '
		FILENAME == ARGV[1] { row[$1] = $0; next }
		{ if ($1 in row) {
			split(row[$1], o, "\t")
			for (i = 2; i <= 4; i++) if ($i == "-") $i = o[i]
		  }
		  row[$1] = $0 }
		END { for (t in row) print row[t] }' "$old" "$new" | sort -V
} >"$tsv.tmp" && mv "$tsv.tmp" "$tsv"
rm -f "$old"

t_end=$(date +%s)
echo
echo "Open POSIX Test Suite $PTS_VER, ${#tests[@]} tests (this run; results.tsv keeps all)"
awk -F'\t' -v builds="$BUILDS" '
BEGIN { nb = split(builds, bl, " ")
	nc = split("pass fail unresolved unsupported untested hang crash build-fail no-main", cl, " ") }
{ for (i = 1; i <= nb; i++) {
	col = (bl[i] == "green") ? 2 : (bl[i] == "1to1") ? 3 : 4
	r = $col; sub(/:.*/, "", r)
	n[bl[i], r]++ } }
END {
	printf "%-6s", "build"
	for (j = 1; j <= nc; j++) printf "  %s", cl[j]
	printf "\n"
	for (i = 1; i <= nb; i++) {
		printf "%-6s", bl[i]
		for (j = 1; j <= nc; j++) printf "  %" length(cl[j]) "d", n[bl[i], cl[j]]
		printf "\n"
	}
}' "$new"
rm -f "$new"
find "$OUT/logs" -type d -empty -delete 2>/dev/null
[ -f "$RUNDIR/ms" ] && cp "$RUNDIR/ms" "$OUT/times.tsv" && awk -F'\t' -v builds="$BUILDS" '{ ms[$2] += $3 }
	END { n = split(builds, b, " "); printf "running:"
	      for (i = 1; i <= n; i++) printf "%s %s %.0f s", (i > 1 ? "," : ""), b[i], ms[b[i]] / 1000
	      printf "\n" }' "$RUNDIR/ms"
echo "total: $((t_end - t_start)) s (compiling $((t_built - t_start)) s); results: $tsv; logs: $OUT/logs"
