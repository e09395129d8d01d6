#!/bin/sh
# run.sh — run the benchmark suite and write the metric tables.
#
#   bench/run.sh BUILDDIR [--quick] [--only=PHASE,...] [--dynamic]
#   bench/run.sh BUILDDIR --list        every metric key and phase, with its rows
#   bench/run.sh BUILDDIR --compare [RUN_A RUN_B]   two runs side by side
#
# Builds BUILDDIR/bench/bench-green and bench-1to1 with BUILDDIR/bin/green-cc
# and, when GNU Pth's <pth.h> is installed, bench-pth with the host compiler
# and -lpth (each only when missing or older than its sources).  Runs every
# measurement pinned to one CPU with taskset.  Each run has a directory of
# its own, BUILDDIR/bench/runs/DATE[-quick]/, kept by later runs: the raw
# output of every measurement in raw/, then bench/tables.py writes
# tables.md, stack-depth.svg, server.svg, results.csv and results.json
# beside it (bench/README.md, "Output files").  BUILDDIR/bench/latest
# names the newest run, and its tables.md and plots are copied to
# BUILDDIR/bench/; tables.md is also printed.  --quick runs fewer and
# shorter trials.  --only runs only the phases named (the probes always
# run; --list names them).  Every few seconds the phase that runs says
# how far it is and about how long it and the run have left.
# --dynamic builds one program, BUILDDIR/bench/bench-dyn, linked against
# green's libc.so (green-cc --dynamic; and bench-dyn-tls, with a TLS
# segment), and runs the green columns on it as it is and the 1:1
# column on the same binary through `green-run --threads=1to1`: the
# thread model chosen at run time (docs/dynamic.md).
#
# Environment: BENCH_CPU picks the CPU (default: the highest online one);
# CC the compiler for the Pth build (default cc); BENCH_ONLY narrows the
# micro-metrics to the keys named (--list; an unknown key is refused);
# BENCH_PROGRESS_SECS the seconds between progress lines (default 10).
set -eu

usage() {
	echo "usage: $0 BUILDDIR [--quick] [--only=PHASE,...] [--dynamic] | --list | --compare [RUN_A RUN_B]" >&2
	exit 2
}

[ $# -ge 1 ] || usage
builddir=$1
shift
quick=no only= action=run dynamic=no
for a in "$@"; do
	case $a in
	--quick) quick=yes ;;
	--dynamic) dynamic=yes ;;
	--only=*) only=${a#--only=} ;;
	--list) action=list ;;
	--compare) action=compare ;;
	*) [ $action = compare ] || usage; cmp_args="${cmp_args:-} $a" ;;
	esac
done

srcdir=$(cd "$(dirname "$0")/.." && pwd)
builddir=$(cd "$builddir" && pwd)
green_cc=$builddir/bin/green-cc
out=$builddir/bench
[ -x "$green_cc" ] || { echo "run.sh: $green_cc not found (is green built?)" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "run.sh: python3 is needed for the tables" >&2; exit 1; }
mkdir -p "$out/runs"

# the phases, in the order they run: key, the seconds each took in a
# full and in a --quick run on this 2-CPU machine (bench/README.md,
# loaded: load average in the tens), the estimate when no earlier run
# has its own figure, and what the phase fills
PHASES="probes:1:1:which features are live (copied stacks, the tick): every table
fastpath:55:13:Fast paths in CPU time (bench/fastpath.sh)
micro:40:5:the micro-metric rows of the IEEE 1003.4 table; copied stacks at four depths
sweep:8:2:Switch cost against live stack depth (stack-depth.svg)
tls:6:1:Per-thread TLS
ticks:3:1:Scheduler overhead, Preemptive switch rows
maxthreads:26:9:Maximum threads, Memory per thread rows
procswitch:1:1:Process-context switch row and table
workloads:408:88:Workloads: Ping-Pong, shared data, bursty threads
pshared:153:24:Cross-process wake-up
explore:28:3:Seeded schedules
wakeup:42:11:Wake-up latency beside spinners (bench/wakeup.c)
steal:21:3:A work-stealing executor whose idle workers spin (bench/steal.c)
echo:290:5:Thread per connection against an event loop (bench/echo.sh)
http:719:94:A thread-pool HTTP server (bench/http.sh), server.svg"
phase_keys=$(printf '%s\n' "$PHASES" | cut -d: -f1 | tr '\n' ' ')

if [ $action = compare ]; then
	# shellcheck disable=SC2086
	exec python3 "$srcdir/bench/compare.py" --runs "$out/runs" ${cmp_args:-}
fi

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

if [ $action = list ]; then
	"$out/bench-green" list
	echo
	printf '%-26s %s\n' "# phase (--only)" "the rows and tables it fills"
	printf '%s\n' "$PHASES" | while IFS=: read -r k _ _ what; do printf '%-26s %s\n' "$k" "$what"; done
	exit 0
fi
# the names given must be known: one line and exit status 2 if not
for k in $(printf '%s' "$only" | tr ',' ' '); do
	case " $phase_keys " in
	*" $k "*) ;;
	*) echo "run.sh: --only: unknown phase '$k' (run.sh BUILDDIR --list names them)" >&2; exit 2 ;;
	esac
done
[ -z "${BENCH_ONLY:-}" ] || "$out/bench-green" list >/dev/null   # refuses an unknown key
want() { [ -z "$only" ] || case ",$only," in *",$1,"*) true ;; *) false ;; esac; }

# ---- this run's directory, kept by later runs
suffix=
[ $quick = yes ] && suffix=-quick
run_dir=$out/runs/$(date '+%Y-%m-%d-%H%M%S')$suffix
[ -n "$only" ] && run_dir=$run_dir-only
raw=$run_dir/raw
mkdir -p "$raw"
# the raw directory of the layout before dated runs is kept as a run too
if [ -d "$out/raw" ] && [ ! -L "$out/raw" ]; then
	old=$out/runs/$(date -r "$out/raw" '+%Y-%m-%d-%H%M%S')-earlier
	mkdir -p "$old" && mv "$out/raw" "$old/raw"
	[ -f "$out/tables.md" ] && cp "$out/tables.md" "$old/"
fi
"$out/bench-green" list >"$raw/keys"

# ---- settings
# budget: seconds after which a workload stops adding trials (past
# min_trials); limit: seconds after which any one run is killed; the
# Ping-Pong sizes (--quick shrinks them to stay under 3 minutes)
if [ $quick = yes ]; then
	trials=5 scale=0.25 budget=6 min_trials=1 limit=90
	pp_one="1 200000" pp_many="1000 100" pth_many_limit=15 ps_rounds=300
else
	trials=11 scale=1 budget=40 min_trials=3 limit=300
	pp_one="1 1000000" pp_many="5000 100" pth_many_limit=60 ps_rounds=5000
fi
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
cpu=${BENCH_CPU:-$((ncpu - 1))}
pin="taskset -c $cpu"
command -v taskset >/dev/null 2>&1 || { echo "run.sh: taskset (util-linux) is needed" >&2; exit 1; }
export BENCH_TRIALS=$trials BENCH_SCALE=$scale BENCH_MIN_TRIALS=$min_trials
micro_only=${BENCH_ONLY:-}
unset BENCH_ONLY BENCH_DEPTH BENCH_BUDGET GREEN_STACKS GREEN_QUANTUM_MS
t_start=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

log() { echo "==> [$(($(date +%s) - t_start))s] $*" >&2; }
dur() {   # dur SECONDS: "1 min 5 s"
	if [ "$1" -ge 60 ]; then echo "$(($1 / 60)) min $(($1 % 60)) s"; else echo "$1 s"; fi
}

# ---- phases and progress.  Each phase's estimate is what it took in
# the latest earlier run of the same kind (full or --quick) that ran it,
# else PHASES' figure; what each phase took is
# written to raw/phases for the next run.  A ticker in the background
# says every BENCH_PROGRESS_SECS where the run is (bench/http.sh, the
# last and longest phase, also counts its trials on the same clock).
prev_phases=
for d in $(ls -d "$out"/runs/*"$suffix" 2>/dev/null | sort -r); do
	[ "$d" = "$run_dir" ] && continue
	[ -z "$suffix" ] && case $d in *-quick|*-only) continue ;; esac
	[ -s "$d/raw/phases" ] && { prev_phases=$d/raw/phases; break; }
done
estimate() {   # estimate KEY: seconds
	e=
	[ -n "$prev_phases" ] && e=$(sed -n "s/^$1 \([0-9]*\)\$/\1/p" "$prev_phases" | head -n 1)
	if [ -z "$e" ]; then
		f=2; [ $quick = yes ] && f=3
		e=$(printf '%s\n' "$PHASES" | grep "^$1:" | cut -d: -f$f)
	fi
	echo "${e:-10}"
}
phases=0
for k in $phase_keys; do want "$k" || [ "$k" = probes ] && phases=$((phases + 1)); done
phase_no=0 cur_key= cur_start=0
# the estimated seconds of the wanted phases after KEY
after() {
	rest=0 seen=no
	for k in $phase_keys; do
		if [ $seen = yes ] && { want "$k" || [ "$k" = probes ]; }; then rest=$((rest + $(estimate "$k"))); fi
		[ "$k" = "$1" ] && seen=yes
	done
	echo $rest
}
phase_done() {
	[ -n "$cur_key" ] && echo "$cur_key $(($(date +%s) - cur_start))" >>"$raw/phases"
	cur_key=
}
# phase KEY TEXT: the start of one of the run's phases
phase() {
	phase_done
	phase_no=$((phase_no + 1)) cur_key=$1 cur_start=$(date +%s)
	shift
	est=$(estimate "$cur_key")
	log "phase $phase_no of $phases: $* (about $(dur "$est"); the whole run: about $(dur $((est + $(after "$cur_key")))) left)"
	echo "$phase_no $cur_start $est $(after "$cur_key") $*" >"$raw/.phase"
}
ticker() {
	n=0
	while sleep 1; do   # a second at a time: killed, it is gone at once
		n=$((n + 1))
		[ $n -ge "${BENCH_PROGRESS_SECS:-10}" ] || continue
		n=0
		[ -f "$raw/.phase" ] || continue
		read -r no start est rest name <"$raw/.phase" || continue
		now=$(date +%s)
		in=$((now - start))
		if [ $in -lt "$est" ]; then left=$((est - in)) where="about $(dur $((est - in))) left in it"
		else left=0 where="$(dur $((in - est))) past its estimate"; fi
		echo "==> [$((now - t_start))s] still in phase $no of $phases, $name: $(dur $in) in, $where; the whole run: about $(dur $((left + rest))) left (load $(cut -d' ' -f1 /proc/loadavg))" >&2
	done
}
ticker &
ticker_pid=$!
trap 'kill $ticker_pid 2>/dev/null || :' EXIT

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
# run_append NAME COMMAND...: as run, its output appended to raw/NAME
# (runs alternated in rounds, one file per side)
run_append() {
	app=$1   # (run_for sets name)
	shift
	run_for "$limit" x.tmp "$@"
	cat "$raw/x.tmp" >>"$raw/$app"
	rm -f "$raw/x.tmp" "$raw/x.tmp.err"
}

G=$out/bench-green
K=$out/bench-1to1
P=$out/bench-pth
if [ $dynamic = yes ]; then
	G=$out/bench-dyn
	K="$builddir/bin/green-run --threads=1to1 $out/bench-dyn"
fi

# ---- which optional features are live (probes, never assumed)
phase probes "probes"
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
if want fastpath; then
	phase fastpath "fast paths in CPU time"
	FASTPATH_RAW=$raw/fastpath FASTPATH_MD=$run_dir/fastpath.md \
		sh "$srcdir/bench/fastpath.sh" "$builddir" $([ $quick = yes ] && echo --quick) >/dev/null
fi

# ---- the micro-metrics (BENCH_ONLY narrows them)
switch=yield_busy,mutex_contention,cond_signal_out,cond_signal_in,cond_signal_out_timed,cond_signal_in_timed
if want micro; then
	phase micro "micro-benchmarks (and copied stacks at four depths)"
	for c in $cols; do
		log "micro: $c"
		run "$c.micro" env ${micro_only:+BENCH_ONLY=$micro_only} $(cmd $c) micro
	done
	if [ $copied = yes ]; then
		for d in 512 1024 2048 4096; do
			log "micro, copied stacks, live stack $d bytes"
			run "cop.micro.d$d" env BENCH_DEPTH=$d BENCH_ONLY=${micro_only:-$switch} $(cmd cop) micro
		done
	fi
fi
# switch cost against live stack depth, for the plot (separate stacks are
# the control: flat)
sweep="256 512 1024 2048 4096 8192 16384 32768"
if want sweep; then
	phase sweep "stack-depth sweep"
	for c in sep cop; do
		[ $c = cop ] && [ $copied = no ] && continue
		log "stack-depth sweep: $c"
		for d in $sweep; do
			run "$c.sweep.d$d" env BENCH_DEPTH=$d BENCH_ONLY=yield_busy $(cmd $c) micro
		done
	done
fi

# ---- per-thread TLS: yield busy without and with a TLS segment, the two
# programs alternated in rounds so that tables.py takes their difference
# within each round; and the two ways of moving the thread pointer
GT=$out/bench-green-tls
[ $dynamic = yes ] && GT=$out/bench-dyn-tls
tls_rounds=7
[ $quick = yes ] && tls_rounds=3
if want tls; then
	phase tls "TLS"
	for c in sep cop; do
		[ $c = cop ] && [ $copied = no ] && continue
		mode=separate
		[ $c = cop ] && mode=copied
		log "TLS: yield busy, $mode stacks, without and with a TLS segment, $tls_rounds rounds"
		i=0
		while [ $i -lt $tls_rounds ]; do
			run_append "tls.$c.without" env GREEN_STACKS=$mode BENCH_TRIALS=3 BENCH_ONLY=yield_busy "$G" micro
			run_append "tls.$c.with" env GREEN_STACKS=$mode BENCH_TRIALS=3 BENCH_ONLY=yield_busy "$GT" micro
			i=$((i + 1))
		done
	done
	run tls.tp "$GT" tp
fi

# ---- ticks and preemption
if want ticks; then
	phase ticks "ticks"
	run k11.ticks $(cmd k11) ticks
	run sep.ticks $(cmd sep) ticks
	if [ $tick = yes ]; then
		run sep.ticks.q0 env GREEN_QUANTUM_MS=0 $(cmd sep) ticks
		run sep.ticks.q1 env GREEN_QUANTUM_MS=1 $(cmd sep) ticks
	fi
fi

# ---- maximum threads (16 KiB stacks); 1:1 capped at half of pid_max so
# the rest of the machine can still fork
pid_max=$(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 32768)
secs=20
[ $quick = yes ] && secs=5
if want maxthreads; then
	phase maxthreads "maximum threads"
	for c in $cols; do
		cap=100000
		[ $c = k11 ] && cap=$((pid_max / 2 < cap ? pid_max / 2 : cap))
		log "maximum threads: $c (cap $cap, ${secs}s)"
		run "$c.maxthreads" $(cmd $c) maxthreads $cap $secs 16384
	done
fi

# ---- process-context switch (Marovich, Appendix C): two processes
if want procswitch; then
	phase procswitch "process-context switch"
	run proc $(cmd k11) procswitch
fi

# ---- workloads: Harman's Ping-Pong, shared data, bursty threads
export BENCH_BUDGET=$budget
if want workloads; then
	phase workloads "Ping-Pong, shared data, bursty threads"
	for c in $cols; do
		log "Ping-Pong: $c"
		run "$c.pp.one" $(cmd $c) pingpong $pp_one 0
		# Pth's scheduler scans every waiting thread at each dispatch, so a
		# tournament of thousands of threads runs for hours: bounded
		many_limit=$limit
		[ $c = pth ] && many_limit=$pth_many_limit
		log "Ping-Pong, many games: $c (at most $(dur $many_limit))"
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
fi
unset BENCH_BUDGET

# ---- cross-process wake-up: two processes ping-pong on a process-shared
# mutex and condition variable (bench/pshared.c); green idle and busy
if want pshared; then
	phase pshared "cross-process wake-up"
	log "cross-process wake-up: green, idle"
	run sep.pshared $(cmd sep) pshared $ps_rounds 0
	log "cross-process wake-up: green, busy"
	run sep.pshared.busy $(cmd sep) pshared $ps_rounds 1
	log "cross-process wake-up: 1:1"
	run k11.pshared $(cmd k11) pshared $ps_rounds 0
fi

# ---- seeded schedules (GREEN_SCHED): the cost of a decision, and of
# --sched-points and --sched-points=memory on a CPU-bound thread and on
# one that updates shared memory (bench/explore.c)
if want explore; then
	phase explore "seeded schedules"
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
		log "seeded schedules: round $((i + 1)) of $xt"
		for s in none random:1 pct:1; do
			e=; [ $s != none ] && e="GREEN_SCHED=$s"
			run_append "explore.yield.$s" env $e "$XB" yield $xn
			run_append "explore.cpu-sp.$s" env $e "$XS" cpu $xc
			[ -x "$XM" ] || continue   # --sched-points=memory: x86_64 only
			run_append "explore.cpu-mp.$s" env $e "$XM" cpu $xc
			run_append "explore.mem-mp.$s" env $e "$XM" mem $xc
		done
		run_append explore.cpu.none "$XB" cpu $xc
		run_append explore.mem.none "$XB" mem $xc
		i=$((i + 1))
	done
fi

# ---- threads beside spinners (bench/spin.sh): a thread woken by a pipe,
# a signal or a timer (bench/wakeup.c), and a work-stealing executor
# whose idle workers spin (bench/steal.c), each for green (separate and
# copied stacks), 1:1 and glibc
if want wakeup; then
	phase wakeup "wake-up latency beside spinners"
	sh "$srcdir/bench/spin.sh" wakeup "$green_cc" "$out" "$raw" "$pin" $quick
fi
if want steal; then
	phase steal "work-stealing executor"
	sh "$srcdir/bench/spin.sh" steal "$green_cc" "$out" "$raw" "$pin" $quick
fi

# ---- thread per connection against an event loop; the multiplexer's
# crossover (bench/echo.sh)
if want echo; then
	phase echo "echo: thread per connection against an epoll loop"
	sh "$srcdir/bench/echo.sh" "$green_cc" "$out" "$raw" "$pin" $quick
fi

# ---- a thread-pool HTTP server under wrk (bench/http.sh: its own
# pinning, server on one CPU and client on another)
if want http; then
	phase http "HTTP server (bench/http.sh)"
	if ! command -v wrk >/dev/null 2>&1; then
		echo "wrk (Debian package wrk) is not installed" >"$raw/http.failed"
	elif ! BENCH_T0=$t_start bash "$srcdir/bench/http.sh" "$builddir" "$raw" $([ $quick = yes ] && echo --quick); then
		echo "bench/http.sh failed" >"$raw/http.failed"
	fi
fi
phase_done
kill $ticker_pid 2>/dev/null || :
rm -f "$raw/.phase"

t_total=$(($(date +%s) - t_start))
log "done in $(dur $t_total); writing tables"

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
	echo "only ${only:-all}"
	echo "micro_only ${micro_only:-all}"
	echo "pp_one $pp_one"
	echo "pp_many $pp_many"
	echo "trials $trials"
	echo "scale $scale"
	echo "budget $budget"
	echo "min_trials $min_trials"
	echo "tls_rounds $tls_rounds"
	echo "copied $copied"
	echo "tick $tick"
	echo "pid_max $pid_max"
	echo "max_map_count $(cat /proc/sys/vm/max_map_count 2>/dev/null || echo '?')"
	echo "load_start $load_start"
	echo "load_end $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "seconds $t_total"
	echo "run $(basename "$run_dir")"
} >"$raw/info"

python3 "$srcdir/bench/tables.py" "$raw" "$run_dir/tables.md" "$run_dir/stack-depth.svg"
[ -f "$run_dir/fastpath.md" ] && { echo; cat "$run_dir/fastpath.md"; } >>"$run_dir/tables.md"
# the newest run, where the earlier layout had it
ln -sfn "runs/$(basename "$run_dir")" "$out/latest"
ln -sfn latest/raw "$out/raw"
for f in tables.md stack-depth.svg server.svg results.csv results.json; do
	[ -f "$run_dir/$f" ] && cp "$run_dir/$f" "$out/$f"
done
cat "$run_dir/tables.md"
echo "run.sh: wrote $run_dir: tables.md, stack-depth.svg, server.svg, results.csv, results.json and raw/ (copied to $out) in $(dur $t_total)" >&2
