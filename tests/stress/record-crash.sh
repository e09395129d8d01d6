#!/usr/bin/env bash
# record-crash.sh — a real server's crash, recorded under load and replayed
# (docs/record.md).  Not part of make check: it fetches CivetWeb and needs
# wrk.
#
#   tests/stress/record-crash.sh BUILDDIR [TRIES]
#
# tests/stress/uafserver.c is CivetWeb (Debian's source package civetweb,
# fetched with apt-get source into BUILDDIR/src, never kept in this tree)
# with a use-after-free planted in its one handler.  Each try runs it
# under green-record at a 1 ms quantum (16 workers) and puts it under
# wrk's load (50 connections, 10 s: RECORD_CONNS, RECORD_SECS) until it
# crashes; a try where it survived is stopped with SIGTERM and the next
# one starts.  The crash's trace is then replayed 10 times: each replay
# must die of the same signal at the same event with the same summary
# (events, points, signals taken, hash).  Last, the replay runs under gdb
# with green's extension, which must stop at the fault in the handler and
# show every thread's stack (`green-thread apply all bt`): saved as
# gdb.out beside the trace.  Prints the trace's size, the requests served
# and the bytes per request; exits 1 on any failure.  RECORD_LAST=N
# records with green-record --last=N: the trace then starts at a
# checkpoint taken N to 2N seconds before the crash.  RECORD_WARMUP=S
# first serves one connection for S seconds (one request at a time: no
# crash), so that the crash comes after a few windows.
set -u
builddir=$(cd "${1:?usage: record-crash.sh BUILDDIR [TRIES]}" && pwd)
tries=${2:-5}
here=$(cd "$(dirname "$0")/../.." && pwd)
conns=${RECORD_CONNS:-50} secs=${RECORD_SECS:-10} port=${RECORD_PORT:-18097}
last=${RECORD_LAST:+--last=$RECORD_LAST} warmup=${RECORD_WARMUP:-0}
for t in wrk:wrk gdb:gdb; do
	command -v ${t%:*} >/dev/null 2>&1 || { echo "record-crash.sh: ${t%:*} is needed (Debian package ${t#*:})" >&2; exit 1; }
done
. "$here/tools/debsrc.sh"
cw_src=$builddir/src/civetweb-1.15+dfsg
fetch_source civetweb "$cw_src"
out=$builddir/stress/record-crash
mkdir -p "$out"
bin=$out/uafserver
if [ ! -x "$bin" ] || [ "$builddir/lib/green/libc.a" -nt "$bin" ] || [ "$here/tests/stress/uafserver.c" -nt "$bin" ]; then
	echo "==> building uafserver (CivetWeb with a planted use-after-free)" >&2
	"$builddir/bin/green-cc" -O1 -g -DNDEBUG -DNO_SSL -DNO_CGI -I"$cw_src/include" -o "$bin" \
		"$here/tests/stress/uafserver.c" "$cw_src/src/civetweb.c" -lpthread -ldl 2>"$out/build.log" ||
		{ cat "$out/build.log"; exit 1; }
fi
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
echo "record-crash.sh: load $(cut -d' ' -f1-3 /proc/loadavg)"
cd "$out" || exit 1
crashed=
for try in $(seq "$tries"); do
	rm -f crash.trace
	GREEN_QUANTUM_MS=1 "$builddir/bin/green-record" $last -o crash.trace -- "$bin" "$port" 16 \
		>server.out 2>server.err &
	pid=$!
	for _ in $(seq 300); do port_open && break; kill -0 $pid 2>/dev/null || break; sleep 0.02; done
	[ "$warmup" = 0 ] || wrk -t1 -c1 -d"${warmup}s" --timeout 5s "http://127.0.0.1:$port/item" >warmup.out 2>&1
	wrk -t1 -c"$conns" -d"${secs}s" --timeout 5s "http://127.0.0.1:$port/item" >wrk.out 2>&1
	kill -TERM $pid 2>/dev/null
	wait $pid
	st=$?
	if [ $st = 139 ] && grep -q "the run ends with signal 11" server.err; then
		crashed=$try
		break
	fi
	echo "try $try: no crash (exit status $st)"
done
[ -n "$crashed" ] || { fail "no crash in $tries tries"; exit 1; }
want=$(grep -o '[0-9]* events, [0-9]* points, [0-9]* signals, hash [0-9a-f]*' server.err)
reqs=$(grep -o '[0-9]* requests in' wrk.out | cut -d' ' -f1)
size=$(stat -c %s crash.trace)
echo "try $crashed: crashed: $(grep 'received SIGSEGV' server.err)"
echo "  recorded: $want"
echo "  trace: $size bytes for ${reqs:-?} requests completed (~$((size / ${reqs:-1})) bytes a request)"
same=0
for i in $(seq 10); do
	# (in a command substitution whose stderr is dropped: bash's own line
	# about the replay's SIGSEGV is not wanted)
	st=$( { "$builddir/bin/green-replay" crash.trace >replay.out 2>replay.err; echo $?; } 2>/dev/null)
	got=$(grep -o '[0-9]* events, [0-9]* points, [0-9]* signals, hash [0-9a-f]*' replay.err)
	if [ $st = 139 ] && [ "$got" = "$want" ] && grep -q "the run ends with signal 11" replay.err; then
		same=$((same + 1))
	else
		echo "  replay $i: exit status $st, $got"; tail -3 replay.err
	fi
done
if [ $same = 10 ]; then echo "PASS: 10 of 10 replays reach the same crash"
else fail "$same of 10 replays reach the same crash"; fi
cat >gdb.cmds <<'EOC'
run
info green-threads
green-thread apply all bt
EOC
"$builddir/bin/green-replay" --gdb --batch -x gdb.cmds crash.trace >gdb.out 2>&1
nthreads=$(grep -cE '^[ *]+[0-9]+ ' gdb.out)
nbt=$(grep -c '^Green thread [0-9]' gdb.out)
if grep -q "received signal SIGSEGV" gdb.out && grep -q "in item (" gdb.out &&
   [ "$nthreads" -gt 1 ] && [ "$nthreads" = "$nbt" ]; then
	echo "PASS: gdb stops at the replayed fault in item() and shows all $nbt threads' stacks ($out/gdb.out)"
else
	fail "gdb at the replayed crash: $nthreads threads listed, $nbt stacks ($out/gdb.out)"
fi
[ $fails = 0 ]
