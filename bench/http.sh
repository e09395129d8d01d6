#!/usr/bin/env bash
# http.sh — a real thread-pool HTTP server under a real load generator.
#
#   bench/http.sh BUILDDIR [RAWDIR] [--quick]
#
# The server is CivetWeb (Debian source package civetweb, fetched with
# apt-get source into BUILDDIR/src at the first run, never kept in this
# tree), compiled from its own sources three ways: with green-cc (run
# with separate stacks, and with GREEN_STACKS=copied), with
# green-cc --threads=1to1 (stock musl kernel threads) and with the host
# compiler on glibc.  Each serves one 1 KiB file, keep-alive on, with
# TCP_NODELAY set (without it Nagle and delayed ACKs pin every build at
# about 44 ms per request), one worker thread per connection (CivetWeb's
# pool: a worker holds a keep-alive connection until it closes), at
# least 256 workers, and a queue of accepted connections as long as the
# pool (-connection_queue; the default, 20, holds the acceptor back while
# workers are busy).  wrk (Debian package wrk) is the load generator.
# The server runs on one CPU, the client on another, with taskset.
# Two more columns use both CPUs, server and client alike: green2 is two
# green processes (copied stacks), one pinned to each CPU, sharing the
# port through SO_REUSEPORT (CivetWeb has no option for it: a wrapper of
# setsockopt, bench/reuseport.c, adds it where CivetWeb sets
# SO_REUSEADDR; docs/servers.md, "On every core"), each with the whole
# pool; glibc2 is the glibc server, one process, free to use both CPUs.
#
# One trial: a fresh server, a warm-up wrk run, the measured wrk run,
# the server's VmHWM; the table gives the median of the trials.  For
# each connection count the trials go in rounds, each round running
# every column once, one after the other (as bench/echo.sh's do), so
# that the machine's load weighs on every column alike.  Raw
# output: RAWDIR/http.COL.cCONNS.TRIAL (default RAWDIR: BUILDDIR/bench/http/raw)
# and RAWDIR/http.info; without RAWDIR the HTTP table alone is printed
# (bench/tables.py --http).
#
# Environment:
#   GREEN_IO             passed to the green server as it is (recorded)
#   HTTP_CONNS           connection counts (default "50 1000 10000")
#   HTTP_COLS            columns: sep cop k11 glibc green2 glibc2 (default all)
#   HTTP_TRIALS          trials per cell (default 3; --quick 1)
#   HTTP_SECS            seconds per measured run (default 10; --quick 3),
#                        doubled, with the warm-up, from 5000 connections
#   HTTP_SERVER_CPU, HTTP_CLIENT_CPU   (default 0 and 1)
#   HTTP_GREEN2_PIN      no: green2's processes both free on the two CPUs
#                        (default yes: one pinned to each)
#   HTTP_PORT            (default 18080)
#   CC                   the host compiler for the glibc build (default cc)
#   HTTP_BUILD_ONLY      if set, build the servers and measure nothing
#                        (bench/realtimes.sh times their start-up)
set -eu

usage() { echo "usage: $0 BUILDDIR [RAWDIR] [--quick]" >&2; exit 2; }
[ $# -ge 1 ] || usage
builddir=$(cd "$1" && pwd)
shift
raw= quick=no
for a in "$@"; do
	case $a in
	--quick) quick=yes ;;
	-*) usage ;;
	*) [ -z "$raw" ] || usage; raw=$a ;;
	esac
done
here=$(cd "$(dirname "$0")/.." && pwd)
print_table=no
if [ -z "$raw" ]; then
	raw=$builddir/bench/http/raw   # alone: never a run's raw/ (bench/run.sh)
	print_table=yes
fi
mkdir -p "$raw"
raw=$(cd "$raw" && pwd)
[ -n "${HTTP_BUILD_ONLY:-}" ] || rm -f "$raw"/http.*

green_cc=$builddir/bin/green-cc
[ -x "$green_cc" ] || { echo "http.sh: $green_cc not found (is green built?)" >&2; exit 1; }
for t in wrk:wrk taskset:util-linux ss:iproute2; do
	command -v ${t%:*} >/dev/null 2>&1 || { echo "http.sh: ${t%:*} is needed (Debian package ${t#*:})" >&2; exit 1; }
done

# ---- the server, from Debian's source package
. "$here/tools/debsrc.sh"
cw_src=$builddir/src/civetweb-1.15+dfsg
fetch_source civetweb "$cw_src"
out=$builddir/bench/http
mkdir -p "$out/www"
head -c 1024 /dev/zero | tr '\0' 'x' >"$out/www/1k.html"
# CivetWeb's documented build switches: no TLS (nothing here speaks it)
cw_flags="-O2 -DNDEBUG -DNO_SSL -I$cw_src/include"
cw_srcs="$cw_src/src/civetweb.c $cw_src/src/main.c"
build() {   # build BINARY COMPILER...
	local bin=$1
	shift
	if [ ! -x "$bin" ] || [ "$green_cc" -nt "$bin" ] || [ "$builddir/lib/green/libc.a" -nt "$bin" ] ||
	   [ "$here/bench/reuseport.c" -nt "$bin" ]; then
		echo "==> building $(basename "$bin")" >&2
		"$@" $cw_flags -o "$bin" $cw_srcs -lpthread -ldl 2>"$bin.log" ||
			{ cat "$bin.log" >&2; return 1; }
	fi
}
build "$out/civetweb-green" "$green_cc"
build "$out/civetweb-1to1" "$green_cc" --threads=1to1
build "$out/civetweb-glibc" ${CC:-cc}
build "$out/civetweb-green-reuseport" "$green_cc" -Wl,--wrap=setsockopt "$here/bench/reuseport.c"
[ -z "${HTTP_BUILD_ONLY:-}" ] || exit 0

# ---- settings
conns_list=${HTTP_CONNS:-50 1000 10000}
cols=${HTTP_COLS:-sep cop k11 glibc green2 glibc2}
if [ $quick = yes ]; then trials=${HTTP_TRIALS:-1} secs=${HTTP_SECS:-3} warm=1
else trials=${HTTP_TRIALS:-3} secs=${HTTP_SECS:-10} warm=2; fi
scpu=${HTTP_SERVER_CPU:-0} ccpu=${HTTP_CLIENT_CPU:-1}
port=${HTTP_PORT:-18080}
url=http://127.0.0.1:$port/1k.html
# every connection is a descriptor in the server and in wrk
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
nofile=$(ulimit -n)

server_cmd() {   # server_cmd COL: the command (and environment) of column COL
	case $1 in
	sep) echo "env -u GREEN_STACKS $out/civetweb-green" ;;
	cop) echo "env GREEN_STACKS=copied $out/civetweb-green" ;;
	k11) echo "$out/civetweb-1to1" ;;
	glibc|glibc2) echo "$out/civetweb-glibc" ;;
	green2) echo "env GREEN_STACKS=copied $out/civetweb-green-reuseport" ;;
	esac
}

# the CPUs of column COL's server processes, a word per process; the client's
server_cpus() {
	case $1 in
	green2)
		if [ "${HTTP_GREEN2_PIN:-yes}" = yes ]; then echo "$scpu $ccpu"
		else echo "$scpu,$ccpu $scpu,$ccpu"; fi ;;
	glibc2) echo "$scpu,$ccpu" ;;
	*) echo "$scpu" ;;
	esac
}
client_cpus() {
	case $1 in
	green2|glibc2) echo "$scpu,$ccpu" ;;
	*) echo "$ccpu" ;;
	esac
}

# listeners: how many sockets listen on the port (one per process)
listeners() { ss -Hltn "( sport = :$port )" | wc -l; }

# alive PIDS: are they all running?
alive() {
	local p
	for p in "$@"; do kill -0 "$p" 2>/dev/null || return 1; done
}

# port_open: does something accept on the port?
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }

# trial COL CONNS FILE: fresh servers, warm-up, measured run -> FILE
trial() {
	local col=$1 n=$2 f=$3 workers pids= pid c i rc=0 hwm thr acc q nproc=0
	workers=$((n > 256 ? n : 256))
	echo "# load $(cut -d' ' -f1-3 /proc/loadavg)" >"$f"
	echo "# workers $workers" >>"$f"
	if port_open; then
		echo "# failed: port $port is taken by another program" >>"$f"
		return
	fi
	if [ "$nofile" -lt $((n + 64)) ]; then
		echo "# failed: RLIMIT_NOFILE is $nofile, below $n connections" >>"$f"
		return
	fi
	: >"$f.server"
	for c in $(server_cpus "$col"); do
		taskset -c "$c" $(server_cmd "$col") \
			-listening_ports "127.0.0.1:$port" -document_root "$out/www" \
			-num_threads "$workers" -enable_keep_alive yes -tcp_nodelay 1 \
			-keep_alive_timeout_ms 30000 -listen_backlog 4096 \
			-connection_queue "$workers" \
			>>"$f.server" 2>&1 &
		pids="$pids $!" nproc=$((nproc + 1))
	done
	# ready when every process listens, or failed when one exits (bounded)
	for i in $(seq 600); do
		[ "$(listeners)" -ge $nproc ] && break
		alive $pids || break
		sleep 0.1
	done
	if ! alive $pids || [ "$(listeners)" -lt $nproc ] || ! port_open; then
		for pid in $pids; do
			kill -0 $pid 2>/dev/null && continue
			wait $pid 2>/dev/null || rc=$?
		done
		echo "# failed: the server did not start (exit status $rc): $(grep -m1 -i 'error\|cannot\|fail' "$f.server" || tail -n1 "$f.server")" >>"$f"
		for pid in $pids; do kill -9 $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; done
		return
	fi
	# thousands of connections ramp up slowly (a SYN beyond the listen
	# backlog is retried after 1 s, then 3 s, ...): twice as long a run
	local w=$warm s=$secs
	[ "$n" -ge 5000 ] && w=$((2 * warm)) s=$((2 * secs))
	taskset -c "$(client_cpus "$col")" wrk -t1 -c"$n" -d"${w}s" --timeout 10s "$url" >"$f.warm" 2>&1 || true
	taskset -c "$(client_cpus "$col")" wrk -t1 -c"$n" -d"${s}s" --timeout 10s --latency "$url" >>"$f" 2>&1 &
	local wrk=$!
	# half-way: how many connections the servers have accepted (their
	# sockets but the listeners), how many wait in their listen queues
	sleep $((s / 2))
	acc=0
	for pid in $pids; do
		acc=$((acc + $(find /proc/$pid/fd -lname 'socket:*' 2>/dev/null | wc -l) - 1))
	done
	echo "# accepted $acc" >>"$f.mid"
	echo "# listen_queue $(ss -Hltn "( sport = :$port )" | awk '{q += $2} END {print q + 0}')" >>"$f.mid"
	wait $wrk || rc=$?
	cat "$f.mid" >>"$f" && rm -f "$f.mid"
	[ $rc = 0 ] || echo "# failed: wrk exited with status $rc" >>"$f"
	if alive $pids; then
		hwm=0 thr=0
		for pid in $pids; do
			hwm=$((hwm + $(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/$pid/status)))
			thr=$((thr + $(sed -n 's/^Threads:[[:space:]]*//p' /proc/$pid/status)))
		done
		echo "# hwm_kb $hwm" >>"$f"
		echo "# threads $thr" >>"$f"
		echo "# processes $nproc" >>"$f"
		for pid in $pids; do kill -TERM $pid; done
		for pid in $pids; do
			for i in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
			kill -9 $pid 2>/dev/null || true
			wait $pid 2>/dev/null || true
		done
	else
		rc=0
		for pid in $pids; do
			kill -0 $pid 2>/dev/null && { kill -9 $pid; wait $pid 2>/dev/null || true; continue; }
			wait $pid 2>/dev/null || rc=$?
		done
		echo "# failed: a server process died during the run (status $rc)" >>"$f"
	fi
}

# the clock of bench/run.sh when it runs this (BENCH_T0), so that its log
# lines go on counting; each trial line says how many trials are left
# and, from their warm-up and measured seconds, about how long they take
t0=$(date +%s)
clock0=${BENCH_T0:-$t0}
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
ntrials=0 left_s=0
for n in $conns_list; do
	w=$((warm + secs)); [ "$n" -ge 5000 ] && w=$((2 * w))
	for col in $cols; do
		ntrials=$((ntrials + trials)) left_s=$((left_s + trials * (w + 3)))
	done
done
# round by round: each round runs every column once, so that a change of
# the machine's load during a connection count falls on every column
# alike, not on one column's trials
k=0
for n in $conns_list; do
	w=$((warm + secs)); [ "$n" -ge 5000 ] && w=$((2 * w))
	for i in $(seq "$trials"); do
		for col in $cols; do
			k=$((k + 1))
			echo "==> [$(($(date +%s) - clock0))s] http: $col, $n connections, trial $i/$trials" \
			     "(trial $k of $ntrials, about $((left_s / 60)) min $((left_s % 60)) s left;" \
			     "load $(cut -d' ' -f1 /proc/loadavg))" >&2
			trial "$col" "$n" "$raw/http.$col.c$n.$i"
			left_s=$((left_s - (w + 3)))
		done
	done
done
{
	echo "server $(dpkg-parsechangelog -l "$cw_src/debian/changelog" -S Version 2>/dev/null || echo '?') (Debian source package)"
	echo "client $(wrk -v 2>&1 | head -n1 | cut -d' ' -f1-2)"
	echo "glibc_cc $(${CC:-cc} --version | head -n1)"
	echo "conns $conns_list"
	echo "cols $cols"
	echo "trials $trials"
	echo "order rounds"
	echo "secs $secs"
	echo "warm $warm"
	echo "server_cpu $scpu"
	echo "client_cpu $ccpu"
	echo "nofile $nofile"
	echo "green_io ${GREEN_IO:-default}"
	echo "load_start $load_start"
	echo "load_end $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "seconds $(($(date +%s) - t0))"
} >"$raw/http.info"
if [ $print_table = yes ]; then
	python3 "$here/bench/tables.py" --http "$raw"
fi
