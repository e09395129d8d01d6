#!/bin/sh
# fastpath.sh — the fast paths in CPU time (bench/fastpath.c), as ratios
# taken in one run (docs/fastpaths.md):
#
#   bench/fastpath.sh BUILDDIR [--quick]
#
# Builds bench/fastpath.c three ways into BUILDDIR/bench/ (green-cc,
# green-cc --threads=1to1, the host's cc -pthread for glibc), then runs
# ROUNDS alternating rounds, each running every build once, pinned to one
# CPU: green with separate stacks, green with copied stacks, musl's 1:1
# and glibc.  Each run reports CPU ns per operation (the median of its
# trials).  The table gives the median over the rounds, and the ratios
# the fast paths are held to, each taken within a round and then the
# median over rounds: green's yield that switches over the hand-written
# switch measured in the same process (the integer registers alone, and
# with the FP control words the x86-64 psABI also makes callee-saved,
# bench/handswitch.S), and green's uncontended lock + unlock over
# glibc's.  The load average is given at the start and end.
# Writes BUILDDIR/bench/fastpath.md (FASTPATH_MD) and prints it; the
# rounds' output goes to BUILDDIR/bench/fastpath/ (FASTPATH_RAW).
set -eu
builddir=$(cd "$1" && pwd)
quick=${2:-}
srcdir=$(cd "$(dirname "$0")/.." && pwd)
out=$builddir/bench
# where the rounds and the table go (bench/run.sh: its run's directory)
raw=${FASTPATH_RAW:-$out/fastpath}
md=${FASTPATH_MD:-$out/fastpath.md}
mkdir -p "$raw"
rounds=7
[ "$quick" = --quick ] && rounds=3
src="$srcdir/bench/fastpath.c $srcdir/bench/handswitch.S"
build() {   # build NAME COMPILER...
	bin=$out/fastpath-$1
	shift
	if [ ! -x "$bin" ] || [ "$srcdir/bench/fastpath.c" -nt "$bin" ] ||
	   [ "$builddir/lib/green/libc.a" -nt "$bin" ]; then
		"$@" -O2 -o "$bin" $src
	fi
}
build green "$builddir/bin/green-cc"
build 1to1 "$builddir/bin/green-cc" --threads=1to1
build glibc ${CC:-cc} -pthread
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
pin="taskset -c ${BENCH_CPU:-$((ncpu - 1))}"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
i=0
while [ $i -lt $rounds ]; do
	echo "==> fast paths: round $((i + 1)) of $rounds" >&2
	$pin "$out/fastpath-green" > "$raw/sep.$i"
	GREEN_STACKS=copied $pin "$out/fastpath-green" > "$raw/cop.$i"
	$pin "$out/fastpath-1to1" > "$raw/k11.$i"
	$pin "$out/fastpath-glibc" > "$raw/glibc.$i"
	i=$((i + 1))
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$raw" "$rounds" "$load_start" "$load_end" > "$md" <<'PY'
import sys, statistics
raw, rounds, l0, l1 = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
cols = [("sep", "green, separate"), ("cop", "green, copied"), ("k11", "1:1 (musl)"), ("glibc", "glibc")]
def read(c, i):
    d = {}
    for line in open("%s/%s.%d" % (raw, c, i)):
        k, v = line.split()
        d[k] = None if v == "n/a" else float(v)
    return d
runs = {c: [read(c, i) for i in range(rounds)] for c, _ in cols}
def med(c, k):
    v = [r[k] for r in runs[c] if r.get(k) is not None]
    return statistics.median(v) if v else None
def fmt(x):
    return "n/a" if x is None else "%.1f" % x
ops = [("yield_busy", "yield that switches (per switch)"), ("hand_switch", "hand-written switch, same process (per switch)"),
       ("hand_switch_fp", "the same keeping the FP control words (per switch)"),
       ("mutex", "uncontended lock + unlock"), ("yield", "yield, nothing else runnable"), ("signal", "condition signal, no waiter")]
print("## Fast paths in CPU time\n")
print("Load average at the start: %s; at the end: %s. CPU ns per operation (the process's CPU clock), median of %d alternating rounds; ratios taken within each round, then the median (and range) over the rounds.\n" % (l0, l1, rounds))
print("| operation | " + " | ".join(n for _, n in cols) + " |")
print("|---|" + "---:|" * len(cols))
for k, n in ops:
    print("| %s | %s |" % (n, " | ".join(fmt(med(c, k)) for c, _ in cols)))
def ratio(num, den):
    v = []
    for i in range(rounds):
        a, b = num(i), den(i)
        if a is not None and b:
            v.append(a / b)
    return v
def show(v):
    return "n/a" if not v else "%.2f (%.2f-%.2f)" % (statistics.median(v), min(v), max(v))
print()
print("| ratio | separate | copied |")
print("|---|---:|---:|")
r1 = [ratio(lambda i, c=c: runs[c][i].get("yield_busy"), lambda i, c=c: runs[c][i].get("hand_switch")) for c in ("sep", "cop")]
r2 = [ratio(lambda i, c=c: runs[c][i].get("mutex"), lambda i: runs["glibc"][i].get("mutex")) for c in ("sep", "cop")]
r3 = [ratio(lambda i, c=c: runs[c][i].get("yield_busy"), lambda i, c=c: runs[c][i].get("hand_switch_fp")) for c in ("sep", "cop")]
print("| yield that switches / hand-written switch (target 1.2 at most) | %s | %s |" % (show(r1[0]), show(r1[1])))
print("| yield that switches / hand-written switch keeping the FP control words | %s | %s |" % (show(r3[0]), show(r3[1])))
print("| green lock + unlock / glibc's (target 1.0 at most) | %s | %s |" % (show(r2[0]), show(r2[1])))
PY
cat "$md"
