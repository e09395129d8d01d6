#!/bin/sh
# plots.sh — the bench's probe, tables and plots (bench/system.c,
# bench/tables.py, bench/stats.py, bench/svgplot.py):
#
#  - the real probe, built from bench/*.c: a thread created under
#    GREEN_STACKS=copied reports a copied stack, one created without it
#    a separate one (the probe once measured the distance between two
#    threads' locals, which copied stacks with a slot each no longer
#    tell apart);
#  - a small real run, fed to tables.py as bench/run.sh feeds it: the
#    copied column has figures, the stack-depth plot draws both lines,
#    the fit, and a y axis that ends at the next round value above the
#    data (within 1.45 times it);
#  - made-up raw results with impossible values (derived rows that come
#    out negative within every round, a process switch and a TLS extra
#    below zero, a timing whose spread swamps it): no cell of tables.md
#    shows a negative figure, the rows read "below resolution (< X)",
#    the noisy timing is marked, and results.csv flags the same;
#  - the server plot from made-up figures: a line per build in each HTTP
#    panel and a bar per echo build;
#  - bench/wakeup.c and bench/steal.c built and run small, their rows in
#    tables.md and results.csv (steal.c checks that each task ran once).
. "$GREEN_SRC/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
scratch plots
timeout_of 300

# ---- the real probe and a small real run (not in the SPARC overlay,
# which builds no bench: bench/include.am)
mkdir -p "$T/raw"
if [ -f "$B/libgreen-overlay.a" ]; then
	echo "SKIP: the real probe (the SPARC overlay builds no bench)"
	real=no
elif ! "$B/bin/green-cc" -O2 -o "$T/bench-green" "$S/bench/common.c" "$S/bench/micro.c" \
	"$S/bench/system.c" "$S/bench/workloads.c" "$S/bench/pshared.c" >"$T/err" 2>&1; then
	fail "the bench does not build: $(head -3 "$T/err")"
	real=no
else
	real=yes
	G="$TO $GREEN_RUN $T/bench-green"
	$G list >"$T/raw/keys"
	$G probe >"$T/raw/probe.sep"
	GREEN_STACKS=copied $G probe >"$T/raw/probe.cop"
	if grep -q '^V stacks separate$' "$T/raw/probe.sep" && grep -q '^V stacks copied$' "$T/raw/probe.cop"; then
		pass "the probe: GREEN_STACKS=copied gives copied stacks, the default separate ones"
	else
		fail "the probe: default: $(grep stacks "$T/raw/probe.sep"); copied: $(grep stacks "$T/raw/probe.cop")"
	fi
	copied=no
	grep -q '^V stacks copied' "$T/raw/probe.cop" && copied=yes   # as bench/run.sh decides
	export BENCH_TRIALS=3 BENCH_SCALE=0.01 BENCH_ONLY=yield_busy
	for d in 256 512 1024 2048 4096 8192 16384 32768; do
		BENCH_DEPTH=$d $G micro >"$T/raw/sep.sweep.d$d"
		BENCH_DEPTH=$d GREEN_STACKS=copied $G micro >"$T/raw/cop.sweep.d$d"
	done
	for d in 512 1024 2048 4096; do cp "$T/raw/cop.sweep.d$d" "$T/raw/cop.micro.d$d"; done
	$G micro >"$T/raw/sep.micro"
	GREEN_STACKS=copied $G micro >"$T/raw/cop.micro"
	unset BENCH_TRIALS BENCH_SCALE BENCH_ONLY
	printf 'copied %s\ntick no\ntrials 3\nscale 0.01\n' $copied >"$T/raw/info"
	# threads beside spinners, as bench/spin.sh runs them, only smaller:
	# steal.c exits 1 unless every task ran exactly once
	for p in wakeup steal; do
		"$B/bin/green-cc" -O2 -o "$T/$p" "$S/bench/$p.c" >"$T/err" 2>&1 ||
			fail "bench/$p.c does not build: $(head -3 "$T/err")"
	done
	echo "rounds 5" >"$T/raw/wakeup.info"
	$TO $GREEN_RUN "$T/wakeup" pipe 1 5 >"$T/raw/sep.wakeup.pipe1" ||
		fail "bench/wakeup.c: pipe 1 5 failed"
	echo "tasks 2000" >"$T/raw/steal.info"
	if GREEN_STACKS=copied $TO $GREEN_RUN "$T/steal" 4 2000 1 100 50 >"$T/raw/cop.steal.w4" 2>"$T/err"; then
		pass "bench/steal.c: 4 workers ran 3000 tasks, each once, with copied stacks"
	else
		fail "bench/steal.c: $(head -3 "$T/err")"
	fi
fi

out=$(python3 - "$S/bench" "$T" "$real" <<'EOF'
import csv, os, re, sys, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[1])
import tables, svgplot

NS = "{http://www.w3.org/2000/svg}"
T, real = sys.argv[2], sys.argv[3] == "yes"
bad = []

def numbers(root, anchor):
    vals = []
    for e in root.iter(NS + "text"):
        if e.get("text-anchor") == anchor:
            try:
                vals.append(float((e.text or "").replace("k", "e3").replace("M", "e6")))
            except ValueError:
                pass
    return vals

def write(raw_dir, md):
    """tables.py as bench/run.sh runs it (tables, plot, CSV and JSON)"""
    saved = sys.argv
    sys.argv = ["tables.py", raw_dir, md, os.path.join(os.path.dirname(md), "stack-depth.svg")]
    try:
        tables.main()
    finally:
        sys.argv = saved

# ---- a small real run: the copied column and the stack-depth plot
if real:
    write(T + "/raw", T + "/tables.md")
    md = open(T + "/tables.md").read()
    row = [l for l in md.splitlines() if l.startswith("| Yield, busy")]
    # fixed + per KB (either may be below resolution: these trials are short)
    if not row or "n/a" in row[0].split("|")[3] or not re.search(r" \+ .*/KB", row[0].split("|")[3]):
        bad.append("tables.md: the copied column of yield busy has no fit: %s" % (row or "no row"))
    raw = tables.Raw(T + "/raw")
    root = ET.parse(T + "/stack-depth.svg").getroot()
    data = max(raw.t("%s.sweep.d%d" % (c, d), "yield_busy")[2] for c in ("sep", "cop")
               for d in (256, 512, 1024, 2048, 4096, 8192, 16384, 32768))
    top = max(numbers(root, "end") or [0])
    if not data <= top <= 1.45 * data * 1.05:   # the next round value past 5 % headroom
        bad.append("stack-depth: y axis ends at %g for data up to %g" % (top, data))
    lines = list(root.iter(NS + "polyline"))
    if len(lines) != 2 or any(len(l.get("points").split()) != 8 for l in lines):
        bad.append("stack-depth: want 2 lines of 8 points, got %s" % [len(l.get("points").split()) for l in lines])
    if not any(e.get("stroke-dasharray") for e in root.iter(NS + "line")):
        bad.append("stack-depth: no fitted line")
    if any("not built" in (e.text or "") or "no copied" in (e.text or "") for e in root.iter(NS + "text")):
        bad.append("stack-depth: says copied stacks are missing")
    # the spinners' tables: a figure in the cells measured, "not measured" in the rest
    for want in ("| pipe, 1 | green, separate stacks | **", "| 4 | green, copied stacks | **",
                 "| pipe, 10 | glibc (host cc) | not measured |"):
        if want not in md:
            bad.append("tables.md: no row starting %r" % want)
    got = {(r["column"], r["metric"]) for r in csv.DictReader(open(T + "/results.csv"))}
    if ("sep", "wakeup_p50") not in got or ("cop", "steal_cpu") not in got:
        bad.append("results.csv: no wake-up or work-stealing figures")

# ---- impossible values: made-up raw results
R = T + "/bad"
os.makedirs(R)
def put(name, text):
    with open(os.path.join(R, name), "w") as f:
        f.write(text)
def timing(name, samples, ops=1000):
    s = sorted(samples)
    k = len(s)
    med = s[k // 2] if k % 2 else (s[k // 2 - 1] + s[k // 2]) / 2
    return "S %s %s\nT %s %.3f %.3f %.3f %d %d\n" % (
        name, " ".join("%.3f" % x for x in samples), name, med, s[0], s[-1], ops, k)
yb = [100, 105, 98, 102, 101]
for col in ("sep", "k11", "pth"):
    put(col + ".micro",
        timing("yield_busy", yb) +
        # contention below yield busy in every round: lock_manip < 0
        timing("mutex_contention", [x - 30 for x in yb]) +
        # signal outside below 2 x yield busy: event manipulation < 0
        timing("cond_signal_out", [x + 10 for x in yb]) +
        timing("cond_signal_in", [x * 2 + 5 for x in yb]) +
        timing("cond_signal_out_timed", [x + 8 for x in yb]) +
        timing("cond_signal_in_timed", [x * 2 + 3 for x in yb]) +
        # a spread far larger than the value
        timing("once", [1.0, 1.1, 9.0, 1.0, 1.2]))
put("proc", timing("proc_pingpong", [500, 520, 510, 505, 515], 2000) +
    timing("proc_io", [700, 690, 710, 705, 695], 1000) + timing("getpid", [80, 82, 81, 80, 79], 1000))
for c in ("sep", "cop"):
    put("tls.%s.without" % c, "".join(timing("yield_busy", [50 + i, 51 + i, 49 + i]) for i in range(5)))
    put("tls.%s.with" % c, "".join(timing("yield_busy", [40 + i, 41 + i, 39 + i]) for i in range(5)))
put("info", "copied no\ntick no\ntrials 5\n")
write(R, R + "/tables.md")
md = open(R + "/tables.md").read()
cells = [c.strip() for l in md.splitlines() if l.startswith("|") for c in l.split("|")[2:-1]]
neg = [c for c in cells if re.search(r"(^|[\s(;=])[-−]\s?\d", c)]
if neg:
    bad.append("impossible values: negative figures in tables.md: %s" % neg[:4])
def row(prefix):
    return next((l for l in md.splitlines() if l.startswith("| " + prefix)), "")
for prefix in ("Lock manipulation", "Event manipulation"):
    r = row(prefix)
    if r.count("below resolution (< ") < 3:
        bad.append("impossible values: %s is not below resolution in all three columns: %s" % (prefix, r))
if "below resolution (< " not in row("this machine"):
    bad.append("impossible values: a negative process switch is shown: %s" % row("this machine"))
if row("extra per switch").count("below resolution (< ") != 2:
    bad.append("impossible values: a negative TLS extra is shown: %s" % row("extra per switch"))
if row("Once-only").count(tables.stats.NOISY) != 3:
    bad.append("impossible values: the noisy timing is not marked: %s" % row("Once-only"))
if not re.search(r"Process switch ÷ coroutine switch: .* this machine — ", md):
    bad.append("impossible values: a ratio of a figure below resolution is given")
flags = {(r["column"], r["metric"]): r["flag"] for r in csv.DictReader(open(R + "/results.csv"))}
if flags.get(("sep", "lock_manip")) != "below_resolution" or flags.get(("sep", "once")) != "noisy":
    bad.append("results.csv: lock_manip %s, once %s" % (flags.get(("sep", "lock_manip")),
                                                       flags.get(("sep", "once"))))

# ---- the server plot: three builds at four connection counts, two echo rows
conns = [10, 100, 1000, 10000]
builds = [(k, k, {n: (1000.0 * i * n ** 0.5, 0.001 * n) for n in conns})
          for i, k in enumerate(("sep", "cop", "glibc"), 1)]
p = T + "/server.svg"
svgplot.server_svg(p, (conns, builds), ("100", [("loop", "event loop", 5e4), ("k11", "1:1", None)]))
root = ET.parse(p).getroot()
lines = list(root.iter(NS + "polyline"))
if len(lines) != 6:
    bad.append("server: want 6 lines (3 builds x 2 panels), got %d" % len(lines))
rps_top = max(v for v in numbers(root, "end") if v >= 1000)
want = 3000.0 * 10000 ** 0.5
if not want <= rps_top <= 1.45 * want:
    bad.append("server: requests/s axis ends at %g for data up to %g" % (rps_top, want))
texts = [e.text or "" for e in root.iter(NS + "text")]
if "not run" not in texts:
    bad.append("server: an echo build without a figure is not marked 'not run'")
print("\n".join(bad) if bad else "ok")
EOF
)
if [ "$out" = ok ]; then
	pass "tables and plots: the copied column and both stack-depth lines from a real run; impossible values marked, never shown; the server plot"
else
	fail "plots: $out"
fi
finish
