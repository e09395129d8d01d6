#!/usr/bin/env bash
# realtimes.sh — two real programs' slow spots under green, against glibc.
#
#   bench/realtimes.sh BUILDDIR [uv] [civet]      (default: both)
#
#   uv      libuv 1.44.2's `uv_run_tests_a signal_multiple_loops`
#           (threads that create and destroy loops while others wait
#           for signals), built by tests/real/realprogs.sh
#           (RP_BUILD_ONLY) in BUILDDIR/realprogs: wall time and CPU
#           time (user + system, the test's child included), as nobody
#           when run as root (the suite refuses root), as the suite
#           script runs it.
#   civet   CivetWeb (bench/http.sh's build, HTTP_BUILD_ONLY) with
#           10,000 workers (each ignores SIGPIPE as it starts) on one
#           CPU: wall time from its start to the first answered GET,
#           and the CPU time it had used by then.
#
# Each in three modes, in turn per round: glibc, green with separate
# stacks, green with GREEN_STACKS=copied (default quantum).  Prints
# every run, then the medians, ranges and ratios to glibc, with the
# load average at the start and end (bench/realtimes.py).  Exits 1 if a
# run failed.
#
# Environment:
#   RT_UV_RUNS      runs per mode of the libuv test (default 5)
#   RT_CIVET_RUNS   runs per mode of CivetWeb (default 3)
#   RT_WORKERS      CivetWeb's workers (default 10000)
#   RT_CPU          the CPU CivetWeb runs on (default 0)
#   RT_PORT         its port (default 18090)
set -eu
[ $# -ge 1 ] || { echo "usage: $0 BUILDDIR [uv] [civet]" >&2; exit 2; }
build=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")/.." && pwd)
what=${*:-uv civet}
st=0
for w in $what; do
	case $w in
	uv)
		RP_BUILD_ONLY=1 RP_MODES="glibc separate" "$here/tests/real/realprogs.sh" "$build" libuv
		top=$build/realprogs
		runas=
		if [ "$(id -u)" = 0 ]; then
			chown -R 65534:65534 "$top"/build-glibc/libuv1-1.44.2 "$top"/build-green/libuv1-1.44.2
			runas="setpriv --reuid=65534 --regid=65534 --clear-groups"
		fi
		python3 "$here/bench/realtimes.py" uv "${RT_UV_RUNS:-5}" \
			"$top/build-glibc/libuv1-1.44.2" "$top/build-green/libuv1-1.44.2" $runas || st=1
		;;
	civet)
		HTTP_BUILD_ONLY=1 "$here/bench/http.sh" "$build"
		out=$build/bench/http
		ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
		python3 "$here/bench/realtimes.py" civet "${RT_CIVET_RUNS:-3}" "${RT_WORKERS:-10000}" \
			"${RT_CPU:-0}" "${RT_PORT:-18090}" "$out/www" "$out/civetweb-glibc" "$out/civetweb-green" || st=1
		;;
	*) echo "realtimes.sh: uv or civet, not $w" >&2; exit 2 ;;
	esac
done
exit $st
