#!/bin/sh
# run.sh — run the benchmark suite and write the metric tables.
#
#   bench/run.sh BUILDDIR [--quick] [--dynamic]
#
# Builds BUILDDIR/bench/bench-green and bench-1to1 with BUILDDIR/bin/green-cc
# and, when GNU Pth's <pth.h> is installed, bench-pth with the host compiler
# and -lpth (each only when missing or older than its sources).  Runs every
# measurement pinned to one CPU with taskset, the raw output of each run
# going to BUILDDIR/bench/raw/, then bench/tables.py writes
# BUILDDIR/bench/tables.md, BUILDDIR/bench/stack-depth.svg and
# BUILDDIR/bench/server.svg; tables.md is also printed.  --quick runs fewer and shorter trials.
# --dynamic builds one program, BUILDDIR/bench/bench-dyn, linked against
# green's libc.so (green-cc --dynamic; and bench-dyn-tls, with a TLS
# segment), and runs the green columns on it as it is and the 1:1
# column on the same binary through `green-run --threads=1to1`: the
# thread model chosen at run time (docs/dynamic.md).
#
# Environment: BENCH_CPU picks the CPU (default: the highest online one);
# CC the compiler for the Pth build (default cc).
set -eu

usage() { echo "usage: $0 BUILDDIR [--quick] [--dynamic]" >&2; exit 2; }

[ $# -ge 1 ] || usage
builddir=$1
shift
quick=no
dynamic=no
for a in "$@"; do
	case $a in
	--quick) quick=yes ;;
	--dynamic) dynamic=yes ;;
	*) usage ;;
	esac
done

srcdir=$(cd "$(dirname "$0")/.." && pwd)
builddir=$(cd "$builddir" && pwd)
green_cc=$builddir/bin/green-cc
out=$builddir/bench
raw=$out/raw
[ -x "$green_cc" ] || { echo "run.sh: $green_cc not found (is green built?)" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "run.sh: python3 is needed for the tables" >&2; exit 1; }
mkdir -p "$out"
rm -rf "$raw"
mkdir -p "$raw"

srcs="common.c micro.c system.c workloads.c pshared.c"
deps="bench.h $srcs"
newer() {   # newer BINARY: is any source, or a libc it links, newer than BINARY (or is it missing)?
	[ -x "$1" ] || return 0
	for f in $deps; do [ "$srcdir/bench/$f" -nt "$1" ] && return 0; done
	for f in "$builddir"/lib/green/libc.a "$builddir"/lib/1to1/libc.a; do [ "$f" -nt "$1" ] && return 0; done
	return 1
}
cflags="-O2 -Wall"
paths() { for f in $srcs; do printf '%s ' "$srcdir/bench/$f"; done; }
for mode in green 1to1; do
	if newer "$out/bench-$mode"; then
		echo "==> building bench-$mode" >&2
		"$green_cc" --threads=$mode $cflags -o "$out/bench-$mode" $(paths)
	fi
done
# the same program with a TLS segment (bench/tls.c): a TCB per green thread
if newer "$out/bench-green-tls" || [ "$srcdir/bench/tls.c" -nt "$out/bench-green-tls" ]; then
	echo "==> building bench-green-tls" >&2
	"$green_cc" $cflags -o "$out/bench-green-tls" $(paths) "$srcdir/bench/tls.c"
fi
# one dynamically linked program for both models (--dynamic)
if [ $dynamic = yes ]; then
	for v in dyn dyn-tls; do
		t=; [ $v = dyn-tls ] && t=$srcdir/bench/tls.c
		if newer "$out/bench-$v" || [ "$builddir/lib/green/libc.so" -nt "$out/bench-$v" ]; then
			echo "==> building bench-$v" >&2
			"$green_cc" --dynamic $cflags -o "$out/bench-$v" $(paths) $t
		fi
	done
fi
pth=no
hostcc=${CC:-cc}
if printf '#include <pth.h>\nint main(void){return pth_init()?0:1;}\n' |
	$hostcc -x c -o /dev/null - -lpth >/dev/null 2>&1; then
	pth=yes
	if newer "$out/bench-pth"; then
		echo "==> building bench-pth" >&2
		$hostcc -DBENCH_PTH $cflags -o "$out/bench-pth" $(paths) -lpth
	fi
else
	echo "run.sh: GNU Pth (libpth-dev) not found: the Pth column is left out" >&2
fi

# ---- settings
# budget: seconds after which a workload stops adding trials (past
# min_trials); limit: seconds after which any one run is killed; the
# Ping-Pong sizes (--quick shrinks them to stay under 3 minutes)
if [ $quick = yes ]; then
	trials=5 scale=0.25 budget=6 min_trials=1 limit=90
	pp_one="1 200000" pp_many="1000 100" pth_many_limit=15 ps_rounds=1000
else
	trials=11 scale=1 budget=40 min_trials=3 limit=300
	pp_one="1 1000000" pp_many="5000 100" pth_many_limit=60 ps_rounds=5000
fi
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
cpu=${BENCH_CPU:-$((ncpu - 1))}
pin="taskset -c $cpu"
command -v taskset >/dev/null 2>&1 || { echo "run.sh: taskset (util-linux) is needed" >&2; exit 1; }
export BENCH_TRIALS=$trials BENCH_SCALE=$scale BENCH_MIN_TRIALS=$min_trials
unset BENCH_ONLY BENCH_DEPTH BENCH_BUDGET GREEN_STACKS GREEN_QUANTUM_MS
t_start=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

log() { echo "==> [$(($(date +%s) - t_start))s] $*" >&2; }
# phase TEXT: the start of one of the run's 13 phases, numbered, with
# the time so far (bench/http.sh, the last and longest, counts its
# trials on the same clock and says how long it has left)
phases=13 phase_no=0
phase() { phase_no=$((phase_no + 1)); log "phase $phase_no of $phases: $*"; }

# run_for SECS NAME COMMAND...: pinned, stdout to raw/NAME, killed after
# SECS seconds (recorded as "did not finish", never as a number)
run_for() {
	lim=$1 name=$2
	shift 2
	rc=0
	timeout "$lim" $pin "$@" >"$raw/$name" 2>"$raw/$name.err" || rc=$?
	if [ $rc = 124 ]; then
		echo "run.sh: $name did not finish within ${lim}s" >&2
		echo "# failed: did not finish within ${lim} s" >>"$raw/$name"
	elif [ $rc != 0 ]; then
		echo "run.sh: $name failed:" >&2
		cat "$raw/$name.err" >&2
		echo "# failed: $(head -n 1 "$raw/$name.err")" >>"$raw/$name"
	fi
}
run() { run_for "$limit" "$@"; }

G=$out/bench-green
K=$out/bench-1to1
P=$out/bench-pth
GT=$out/bench-green-tls
if [ $dynamic = yes ]; then
	G=$out/bench-dyn
	K="$builddir/bin/green-run --threads=1to1 $out/bench-dyn"
	GT=$out/bench-dyn-tls
fi

# ---- which optional features are live (probes, never assumed)
phase "probes"
run probe.sep "$G" probe
run probe.cop env GREEN_STACKS=copied "$G" probe
run probe.tick env GREEN_QUANTUM_MS=1 "$G" probe
copied=no
grep -q '^V stacks copied' "$raw/probe.cop" && copied=yes
tick=no
grep -q '^V timeslice yes' "$raw/probe.tick" && tick=yes
log "copied stacks: $copied; time-slice tick: $tick; GNU Pth: $pth"

cols="sep k11"
[ $copied = yes ] && cols="$cols cop"
[ $pth = yes ] && cols="$cols pth"

# cmd COL: the command line running column COL's binary
cmd() {
	case $1 in
	sep) echo "$G" ;;
	cop) echo "env GREEN_STACKS=copied $G" ;;
	k11) echo "$K" ;;
	pth) echo "$P" ;;
	esac
}

# ---- the fast paths in CPU time, as ratios in one run (bench/fastpath.sh)
phase "fast paths in CPU time"
sh "$srcdir/bench/fastpath.sh" "$builddir" $([ $quick = yes ] && echo --quick) >/dev/null

# ---- the micro-metrics
phase "micro-benchmarks (and copied stacks at four depths)"
for c in $cols; do
	log "micro: $c"
	run "$c.micro" $(cmd $c) micro
done
switch=yield_busy,mutex_contention,cond_signal_out,cond_signal_in,cond_signal_out_timed,cond_signal_in_timed
if [ $copied = yes ]; then
	for d in 512 1024 2048 4096; do
		log "micro, copied stacks, live stack $d bytes"
		run "cop.micro.d$d" env BENCH_DEPTH=$d BENCH_ONLY=$switch $(cmd cop) micro
	done
fi
# switch cost against live stack depth, for the plot (separate stacks are
# the control: flat)
sweep="256 512 1024 2048 4096 8192 16384 32768"
phase "stack-depth sweep"
for c in sep cop; do
	[ $c = cop ] && [ $copied = no ] && continue
	log "stack-depth sweep: $c"
	for d in $sweep; do
		run "$c.sweep.d$d" env BENCH_DEPTH=$d BENCH_ONLY=yield_busy $(cmd $c) micro
	done
done

# ---- per-thread TLS: yield busy without and with a TLS segment, each
# pair run back to back so that their ratio holds on a loaded machine;
# and the two ways of moving the thread pointer
phase "TLS"
for c in sep cop; do
	[ $c = cop ] && [ $copied = no ] && continue
	mode=separate
	[ $c = cop ] && mode=copied
	log "TLS: yield busy, $mode stacks, without and with a TLS segment"
	run "tls.$c.without" env GREEN_STACKS=$mode BENCH_ONLY=yield_busy "$G" micro
	run "tls.$c.with" env GREEN_STACKS=$mode BENCH_ONLY=yield_busy "$GT" micro
done
run tls.tp "$GT" tp

# ---- ticks and preemption
phase "ticks"
run k11.ticks $(cmd k11) ticks
run sep.ticks $(cmd sep) ticks
if [ $tick = yes ]; then
	run sep.ticks.q0 env GREEN_QUANTUM_MS=0 $(cmd sep) ticks
	run sep.ticks.q1 env GREEN_QUANTUM_MS=1 $(cmd sep) ticks
fi

# ---- maximum threads (16 KiB stacks); 1:1 capped at half of pid_max so
# the rest of the machine can still fork
pid_max=$(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 32768)
secs=20
[ $quick = yes ] && secs=5
phase "maximum threads"
for c in $cols; do
	cap=100000
	[ $c = k11 ] && cap=$((pid_max / 2 < cap ? pid_max / 2 : cap))
	log "maximum threads: $c (cap $cap, ${secs}s)"
	run "$c.maxthreads" $(cmd $c) maxthreads $cap $secs 16384
done

# ---- process-context switch (Marovich, Appendix C): two processes
phase "process-context switch"
run proc $(cmd k11) procswitch

# ---- workloads: Harman's Ping-Pong, shared data, bursty threads
export BENCH_BUDGET=$budget
phase "Ping-Pong, shared data, bursty threads"
for c in $cols; do
	log "Ping-Pong: $c"
	run "$c.pp.one" $(cmd $c) pingpong $pp_one 0
	# Pth's scheduler scans every waiting thread at each dispatch, so a
	# tournament of thousands of threads runs for hours: bounded
	many_limit=$limit
	[ $c = pth ] && many_limit=$pth_many_limit
	run_for $many_limit "$c.pp.many" $(cmd $c) pingpong $pp_many 32768
	log "shared data under one mutex: $c"
	for n in 250 500 1000 2000; do
		run "$c.shared$n" $(cmd $c) shared $n 10000
	done
	log "bursty threads: $c"
	for b in 5000 10000 40000; do
		run "$c.bursty$b" $(cmd $c) bursty 4 4 10000 $b
	done
done
unset BENCH_BUDGET

# ---- cross-process wake-up: two processes ping-pong on a process-shared
# mutex and condition variable (bench/pshared.c); green idle and busy
phase "cross-process wake-up"
run sep.pshared $(cmd sep) pshared $ps_rounds 0
run sep.pshared.busy $(cmd sep) pshared $ps_rounds 1
run k11.pshared $(cmd k11) pshared $ps_rounds 0

# ---- seeded schedules (GREEN_SCHED): the cost of a decision, and of
# --sched-points and --sched-points=memory on a CPU-bound thread and on
# one that updates shared memory (bench/explore.c)
phase "seeded schedules"
XB=$out/bench-explore XS=$out/bench-explore-sp XM=$out/bench-explore-mp
for f in "$XB" "$XS" "$XM"; do
	if [ ! -x "$f" ] || [ "$srcdir/bench/explore.c" -nt "$f" ]; then
		sp=; [ "$f" = "$XS" ] && sp=--sched-points
		[ "$f" = "$XM" ] && sp=--sched-points=memory
		"$green_cc" $sp $cflags -o "$f" "$srcdir/bench/explore.c" 2>/dev/null || rm -f "$f"
	fi
done
xn=200000 xc=2000000
[ $quick = yes ] && xn=50000 xc=500000
xt=7; [ $quick = yes ] && xt=3
i=0
while [ $i -lt $xt ]; do
	for s in none random:1 pct:1; do
		e=; [ $s != none ] && e="GREEN_SCHED=$s"
		run_for 120 x.tmp env $e "$XB" yield $xn && cat "$raw/x.tmp" >>"$raw/explore.yield.$s"
		run_for 120 x.tmp env $e "$XS" cpu $xc && cat "$raw/x.tmp" >>"$raw/explore.cpu-sp.$s"
		[ -x "$XM" ] || continue   # --sched-points=memory: x86_64 only
		run_for 120 x.tmp env $e "$XM" cpu $xc && cat "$raw/x.tmp" >>"$raw/explore.cpu-mp.$s"
		run_for 120 x.tmp env $e "$XM" mem $xc && cat "$raw/x.tmp" >>"$raw/explore.mem-mp.$s"
	done
	run_for 120 x.tmp "$XB" cpu $xc && cat "$raw/x.tmp" >>"$raw/explore.cpu.none"
	run_for 120 x.tmp "$XB" mem $xc && cat "$raw/x.tmp" >>"$raw/explore.mem.none"
	i=$((i + 1))
done
rm -f "$raw/x.tmp" "$raw/x.tmp.err"

# ---- thread per connection against an event loop; the multiplexer's
# crossover (bench/echo.sh)
phase "echo: thread per connection against an epoll loop"
sh "$srcdir/bench/echo.sh" "$green_cc" "$out" "$raw" "$pin" $quick

# ---- a thread-pool HTTP server under wrk (bench/http.sh: its own
# pinning, server on one CPU and client on another)
phase "HTTP server (bench/http.sh)"
if ! command -v wrk >/dev/null 2>&1; then
	echo "wrk (Debian package wrk) is not installed" >"$raw/http.failed"
elif ! BENCH_T0=$t_start bash "$srcdir/bench/http.sh" "$builddir" "$raw" $([ $quick = yes ] && echo --quick); then
	echo "bench/http.sh failed" >"$raw/http.failed"
fi

t_total=$(($(date +%s) - t_start))
log "done; writing tables"

# ---- what the machine was
{
	model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
	echo "cpu ${model:-$(uname -m)}"
	echo "ncpu $ncpu"
	echo "pinned $cpu"
	echo "kernel $(uname -sr)"
	echo "cc $("$green_cc" --version 2>/dev/null | sed -n 2p)"
	[ $pth = yes ] && echo "pth $(pth-config --version 2>/dev/null || echo 'GNU Pth'), built with $($hostcc --version | head -n 1)"
	echo "quick $quick"
	echo "pp_one $pp_one"
	echo "pp_many $pp_many"
	echo "trials $trials"
	echo "scale $scale"
	echo "budget $budget"
	echo "min_trials $min_trials"
	echo "copied $copied"
	echo "tick $tick"
	echo "pid_max $pid_max"
	echo "max_map_count $(cat /proc/sys/vm/max_map_count 2>/dev/null || echo '?')"
	echo "load_start $load_start"
	echo "load_end $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "seconds $t_total"
} >"$raw/info"

python3 "$srcdir/bench/tables.py" "$raw" "$out/tables.md" "$out/stack-depth.svg"
{ echo; cat "$out/fastpath.md"; } >>"$out/tables.md"
cat "$out/tables.md"
echo "run.sh: wrote $out/tables.md, $out/stack-depth.svg and $out/server.svg in ${t_total}s" >&2
