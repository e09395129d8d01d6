#!/usr/bin/env bash
# server.sh — restart a real thread-pool HTTP server back to back under
# load, and keep and open every core it leaves (docs/testing.md).  Not
# part of make check: it runs for as long as it is asked to.
#
#   tests/stress/server.sh BUILDDIR [ROUNDS]
#
# The server is CivetWeb (Debian source package civetweb, fetched with
# apt-get source into BUILDDIR/src as bench/http.sh does, never kept in
# this tree), built with green-cc.  Each round runs every configuration
# once: worker threads 256, 1000 and 10,000 (STRESS_THREADS), separate
# and copied stacks (STRESS_STACKS), quanta of 10 ms, 1 ms and 50 us
# (STRESS_QUANTA).  A run starts a server on the same port as the last
# one, right after it exited, and starts wrk at once (200 connections,
# 2 s: STRESS_CONNS, STRESS_SECS), then stops the server with SIGTERM.
# Core dumps are on (ulimit -c, in the run's own directory: the kernel's
# core_pattern must be a plain file name, "core" by default); a run whose
# server died of a signal, or left a core, is a crash: its core is
# opened with gdb and green's extension, and `info green-threads` and
# `green-thread apply all bt` are saved beside it.  GREEN_DEBUG=1
# (docs/environment.md) is passed on when set, so that a use of released
# memory is named.  Prints a line per crash and the counts per
# configuration; exits 1 if any run crashed.
set -u
builddir=$(cd "${1:?usage: server.sh BUILDDIR [ROUNDS]}" && pwd)
rounds=${2:-1}
here=$(cd "$(dirname "$0")/../.." && pwd)
threads=${STRESS_THREADS:-256 1000 10000}
stacks=${STRESS_STACKS:-separate copied}
quanta=${STRESS_QUANTA:-10 1 0.05}
conns=${STRESS_CONNS:-200} secs=${STRESS_SECS:-2} port=${STRESS_PORT:-18090}
green_cc=$builddir/bin/green-cc
for t in wrk:wrk gdb:gdb; do
	command -v ${t%:*} >/dev/null 2>&1 || { echo "server.sh: ${t%:*} is needed (Debian package ${t#*:})" >&2; exit 1; }
done
case $(cat /proc/sys/kernel/core_pattern) in
'|'*) echo "server.sh: cores go to a program (core_pattern $(cat /proc/sys/kernel/core_pattern)); set it to 'core' to keep them" >&2 ;;
esac

. "$here/tools/debsrc.sh"
cw_src=$builddir/src/civetweb-1.15+dfsg
fetch_source civetweb "$cw_src"
out=$builddir/stress/server
mkdir -p "$out/www"
head -c 1024 /dev/zero | tr '\0' 'x' >"$out/www/1k.html"
bin=$out/civetweb-green
if [ ! -x "$bin" ] || [ "$builddir/lib/green/libc.a" -nt "$bin" ]; then
	echo "==> building civetweb-green" >&2
	"$green_cc" -O2 -g -DNDEBUG -DNO_SSL -I"$cw_src/include" -o "$bin" \
		"$cw_src/src/civetweb.c" "$cw_src/src/main.c" -lpthread -ldl || exit 1
fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }

declare -A runs crashes
t0=$(date +%s)
echo "server.sh: $rounds rounds, load $(cut -d' ' -f1-3 /proc/loadavg)${GREEN_DEBUG:+, GREEN_DEBUG=$GREEN_DEBUG}"
for r in $(seq "$rounds"); do
	for n in $threads; do
		for s in $stacks; do
			for q in $quanta; do
				key="$n threads, $s stacks, quantum $q ms"
				dir=$out/run.$n.$s.$q.$r
				rm -rf "$dir" && mkdir -p "$dir"
				(
					cd "$dir" && ulimit -c unlimited &&
					exec env GREEN_STACKS=$s GREEN_QUANTUM_MS=$q "$bin" \
						-listening_ports "127.0.0.1:$port" -document_root "$out/www" \
						-num_threads "$n" -enable_keep_alive yes -tcp_nodelay 1 \
						-listen_backlog 4096 -connection_queue "$n"
				) >"$dir/server.out" 2>&1 &
				pid=$!
				for _ in $(seq 300); do port_open && break; kill -0 $pid 2>/dev/null || break; sleep 0.02; done
				wrk -t1 -c"$conns" -d"${secs}s" --timeout 5s "http://127.0.0.1:$port/1k.html" >"$dir/wrk.out" 2>&1
				kill -TERM $pid 2>/dev/null
				for _ in $(seq 300); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
				kill -9 $pid 2>/dev/null
				wait $pid 2>/dev/null
				st=$?
				runs[$key]=$((${runs[$key]:-0} + 1))
				core=$(ls "$dir"/core* 2>/dev/null | head -n1)
				# SIGTERM (143) or a clean exit is the expected end; SIGKILL
				# (137) means it did not stop within 30 s of SIGTERM
				if [ -n "$core" ] || { [ $st -gt 128 ] && [ $st != 143 ]; }; then
					crashes[$key]=$((${crashes[$key]:-0} + 1))
					what=CRASH
					[ $st = 137 ] && [ -z "$core" ] && what="NO STOP (killed 30 s after SIGTERM)"
					echo "$what: $key, round $r: exit status $st${core:+, core $core}"
					grep -m3 '^green:' "$dir/server.out" | sed 's/^/    /'
					if [ -n "$core" ]; then
						gdb -batch -iex "add-auto-load-safe-path $here/gdb" \
							-ex 'info green-threads' -ex 'green-thread apply all bt' \
							"$bin" "$core" >"$core.threads.txt" 2>&1
						echo "    threads and backtraces: $core.threads.txt"
					fi
				else
					rm -rf "$dir"
				fi
			done
		done
	done
	echo "==> [$(($(date +%s) - t0)) s] round $r of $rounds done (load $(cut -d' ' -f1 /proc/loadavg))" >&2
done
bad=0
for key in "${!runs[@]}"; do
	echo "$key: ${runs[$key]} runs, ${crashes[$key]:-0} crashes"
	[ "${crashes[$key]:-0}" = 0 ] || bad=1
done | sort -n
for key in "${!crashes[@]}"; do bad=1; done
echo "server.sh: $(($(date +%s) - t0)) s, load $(cut -d' ' -f1-3 /proc/loadavg)"
exit $bad
