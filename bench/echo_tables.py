"""echo_tables.py — the thread-per-connection tables of bench/tables.py,
from what bench/echo.sh wrote into the raw directory."""
import os
import statistics


def _rates(raw, name):
    p = os.path.join(raw, name)
    if not os.path.exists(p):
        return None, None
    vals, note = [], None
    for line in open(p):
        line = line.strip()
        if line.startswith("# failed"):
            note = line[2:]
        elif line:
            vals.append(float(line))
    return vals, note


def _k(x):
    return "%.1fk" % (x / 1000)


def lines(raw):
    """The section's markdown lines, or [] when echo.sh did not run."""
    if not os.path.exists(os.path.join(raw, "echo.info")):
        return []
    size = open(os.path.join(raw, "echo.info")).read().split()[1:]
    out = ["## Thread per connection against an event loop",
           "",
           "`bench/echo.c`: %s connections x %s round trips of 32 bytes over TCP "
           "on 127.0.0.1 in one process, a thread per connection on both sides; "
           "`bench/echo-epoll.c`: the same work in one hand-written level-triggered "
           "epoll loop on one thread. Median (min–max) of the rounds, each round "
           "running every row once, one after the other (`bench/echo.sh`); "
           "GREEN_IO `auto` is the default (select, then epoll from 64 descriptors)."
           % tuple(size), "",
           "| build | GREEN_IO | round trips/s | × event loop |",
           "|---|---|---|---|"]
    loop, _ = _rates(raw, "echo.loop")
    base = statistics.median(loop) if loop else None
    rows = [("event loop (epoll, one thread)", "", "loop"), ("1:1 (musl)", "", "k11")]
    for st in ("separate", "copied"):
        for io in ("auto", "select", "poll", "epoll"):
            rows.append(("green, %s stacks" % st, io, "%s.%s" % (st, io)))
    for label, io, name in rows:
        vals, note = _rates(raw, "echo." + name)
        if not vals:
            out.append("| %s | %s | %s | |" % (label, io, note or "not run"))
            continue
        m = statistics.median(vals)
        out.append("| %s | %s | %s (%s–%s, %d) | %s |" % (
            label, io, _k(m), _k(min(vals)), _k(max(vals)), len(vals),
            "%.2f" % (m / base) if base else "?"))
    out += ["", "`bench/iomux.c`: one byte round a ring of N threads, each blocked "
            "in `read` on its own pipe, so every hop is one idle round of the "
            "multiplexer over N − 1 waiting descriptors (hops/s):", "",
            "| N | select | poll | epoll |", "|---|---|---|---|"]
    ns = sorted({int(f.split(".")[2]) for f in os.listdir(raw) if f.startswith("iomux.")})
    for n in ns:
        cells = []
        for io in ("select", "poll", "epoll"):
            vals, _ = _rates(raw, "iomux.%s.%d" % (io, n))
            cells.append(_k(statistics.median(vals)) if vals else "–")
        out.append("| %d | %s |" % (n, " | ".join(cells)))
    out.append("")
    return out
