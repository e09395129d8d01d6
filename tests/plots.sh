#!/bin/sh
# plots.sh — the bench's plots (bench/tables.py, bench/svgplot.py) drawn
# from made-up figures, nothing run: each SVG parses; the stack-depth
# plot's y axis ends at the next round value above its data (within 1.45
# times it, where the plot once ran to 2.5 times) and carries the fitted line of the copied stacks; the server plot
# has a line per build in each HTTP panel and a bar per echo build.
. "$GREEN_SRC/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
scratch plots
out=$(python3 - "$S/bench" "$T" <<'EOF'
import sys, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[1])
import tables, svgplot

NS = "{http://www.w3.org/2000/svg}"
T = sys.argv[2]
bad = []

class Raw:
    """yield_busy medians: separate flat at 40 ns, copied 300 + 420 per KB."""
    def t(self, name, key):
        col, _, d = name.split(".")
        kb = int(d[1:]) / 1024.0
        m = 40.0 if col == "sep" else 300.0 + 420.0 * kb
        return (m, m * 0.95, m * 1.05)

def numbers(root, anchor):
    vals = []
    for e in root.iter(NS + "text"):
        if e.get("text-anchor") == anchor:
            try:
                vals.append(float((e.text or "").replace("k", "e3").replace("M", "e6")))
            except ValueError:
                pass
    return vals

# the stack-depth plot: data up to 300 + 420 * 32 = 13,740 ns (x 1.05 for
# the bar), the copied fit drawn
p = T + "/stack-depth.svg"
tables.plot(Raw(), p, True, (300.0, 420.0))
root = ET.parse(p).getroot()
top = max(numbers(root, "end") or [0])
data = (300.0 + 420.0 * 32) * 1.05
if not data <= top <= 1.45 * data:   # the next round value past 5 % headroom
    bad.append("stack-depth: y axis ends at %g for data up to %g" % (top, data))
lines = [e for e in root.iter(NS + "polyline")]
if len(lines) != 2 or any(len(l.get("points").split()) != 8 for l in lines):
    bad.append("stack-depth: want 2 lines of 8 points, got %s" % [len(l.get("points").split()) for l in lines])
if not any(e.get("stroke-dasharray") for e in root.iter(NS + "line")):
    bad.append("stack-depth: no fitted line")
if not any("per KB" in (e.text or "") for e in root.iter(NS + "text")):
    bad.append("stack-depth: the fit is not labelled")

# the server plot: three builds at four connection counts, two echo rows
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
	pass "the stack-depth and server plots: axes fit the data, the fit and every build drawn"
else
	fail "plots: $out"
fi
finish
