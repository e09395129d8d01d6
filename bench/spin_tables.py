"""spin_tables.py -- the tables of threads beside spinners, for
bench/tables.py and bench/results.py, from what bench/spin.sh wrote into
the raw directory:

  COL.wakeup.EVENTN   bench/wakeup.c's V lines (wakeup_p50, ...; spin_min,
                      spin_max), one run
  COL.steal.wN        bench/steal.c's V lines, one set per round

COL is sep, cop, k11 or glibc.  A "# failed: WHY" line says why a run
has no figure.  wakeup.info and steal.info hold the sizes.
"""
import os
import statistics

COLS = [("sep", "green, separate stacks"), ("cop", "green, copied stacks"),
        ("k11", "1:1 (musl)"), ("glibc", "glibc (host cc)")]
EVENTS = [("pipe", 1), ("pipe", 10), ("signal", 10), ("timer", 10)]
WORKERS = [4, 8]


def _read(raw, name):
    """(rounds, failure): rounds a list of {key: float}, one per run (a
    new set of V lines starts when a key repeats; a failed run is an
    empty one, so that round r of every column stays round r); failure
    the last "# failed:" note or None."""
    p = os.path.join(raw, name)
    if not os.path.exists(p):
        return None, None
    rounds, cur, note = [], {}, None
    for line in open(p):
        w = line.split()
        if line.startswith("# failed:"):
            note = line[len("# failed:"):].strip()
            if cur:
                rounds.append(cur)
            rounds.append({})   # the failed run's round, empty
            cur = {}
        elif len(w) == 3 and w[0] == "V":
            if w[1] in cur:
                rounds.append(cur)
                cur = {}
            cur[w[1]] = float(w[2])
    if cur:
        rounds.append(cur)
    return rounds, note


def _info(raw, name, key):
    p = os.path.join(raw, name)
    if os.path.exists(p):
        for line in open(p):
            w = line.split()
            if len(w) == 2 and w[0] == key:
                return w[1]
    return "?"


def _us(x):
    if x >= 10000:
        return "{:,.0f}".format(x)
    return "%.0f" % x if x >= 100 else "%.1f" % x


def _count(x):
    return "%.1fM" % (x / 1e6) if x >= 1e6 else "%.0fk" % (x / 1e3) if x >= 1e3 else "%.0f" % x


def wakeup_lines(raw):
    out = ["## Wake-up latency beside spinners (bench/wakeup.c)", "",
           "A thread blocks in `read` on a pipe (signal: in `sigwait`; timer: in an "
           "absolute `clock_nanosleep` 2 ms ahead) while SPINNERS threads compute "
           "without a system call; main writes a byte (sends the signal) and the time "
           "until the waiter's call returns is one sample (the timer: from its "
           "deadline). %s rounds per cell, microseconds, default quantum, every build "
           "pinned to the same CPU. The spinners' progress is the least and the most "
           "any spinner advanced (counts of its loop) and their ratio: near 1, none "
           "starved." % _info(raw, "wakeup.info", "rounds"), "",
           "| event, spinners | build | median | p90 | max | mean | spinners: least – most (ratio) |",
           "|---|---|---:|---:|---:|---:|---|"]
    for ev, n in EVENTS:
        for c, label in COLS:
            rounds, note = _read(raw, "%s.wakeup.%s%d" % (c, ev, n))
            if not rounds or "wakeup_p50" not in rounds[-1]:
                out.append("| %s, %d | %s | %s |||||" % (ev, n, label, note or "not measured"))
                continue
            v = rounds[-1]
            prog = ""
            if "spin_min" in v and v.get("spin_max"):
                prog = "%s – %s (%.2f)" % (_count(v["spin_min"]), _count(v["spin_max"]),
                                           v["spin_min"] / v["spin_max"])
            out.append("| %s, %d | %s | **%s** | %s | %s | %s | %s |" % (
                ev, n, label, _us(v["wakeup_p50"]), _us(v["wakeup_p90"]), _us(v["wakeup_max"]),
                _us(v["wakeup_mean"]), prog))
    out.append("")
    return out


def _steal(raw, c, w):
    return _read(raw, "%s.steal.w%d" % (c, w))


def steal_lines(raw):
    out = ["## A work-stealing executor whose idle workers spin (bench/steal.c)", "",
           "WORKERS threads with a deque each; an idle worker steals in a busy loop "
           "(no system call, a `pause` between rounds) for 2000 empty rounds before it "
           "sleeps. Main submits %s tasks of about 1 µs of CPU in waves of 1000 and "
           "waits for each wave; every fourth task spawns two children (1.5 × the tasks "
           "run in all). CPU is user + sys (`getrusage`) and wall the elapsed time, both "
           "from the first wave to the last, in milliseconds: median (min–max) of the "
           "rounds, each round running every build once; the ratio to glibc is taken "
           "within each round, then the median. Every build pinned to the same CPU, "
           "default quantum." % "{:,}".format(int(_info(raw, "steal.info", "tasks")))
           if _info(raw, "steal.info", "tasks") != "?" else "", "",
           "| workers | build | CPU ms | wall ms | CPU ÷ glibc | wall ÷ glibc | steals | sleeps |",
           "|---:|---|---:|---:|---:|---:|---:|---:|"]

    def mr(v):
        return "%.0f (%.0f–%.0f)" % (statistics.median(v), min(v), max(v))

    for w in WORKERS:
        base, _ = _steal(raw, "glibc", w)
        for c, label in COLS:
            every, note = _steal(raw, c, w)
            rounds = [r for r in (every or []) if "steal_cpu_ms" in r]
            if not rounds:
                out.append("| %d | %s | %s ||||||" % (w, label, note or "not measured"))
                continue

            def ratio(key):
                v = [r[key] / b[key] for r, b in zip(every, base or []) if r.get(key) and b.get(key)]
                return "%.2f" % statistics.median(v) if v else "—"
            out.append("| %d | %s | **%s** | %s | %s | %s | %s | %s |" % (
                w, label, mr([r["steal_cpu_ms"] for r in rounds]),
                mr([r["steal_wall_ms"] for r in rounds]), ratio("steal_cpu_ms"),
                ratio("steal_wall_ms"),
                _count(statistics.median([r["steal_steals"] for r in rounds])),
                _count(statistics.median([r["steal_sleeps"] for r in rounds]))))
            if note:
                out[-1] += " (a round failed: %s)" % note
    out.append("")
    return out


def lines(raw):
    """The sections' Markdown lines; [] for a section whose phase did not run."""
    out = []
    if os.path.exists(os.path.join(raw, "wakeup.info")):
        out += wakeup_lines(raw)
    if os.path.exists(os.path.join(raw, "steal.info")):
        out += steal_lines(raw)
    return out


def records(raw):
    """The figures as results.py's records (bench/README.md, "Output files")."""
    out = []

    def rec(run, c, metric, vals, unit):
        out.append(dict(run=run, column=c, metric=metric, depth="",
                        value=statistics.median(vals), min=min(vals), max=max(vals), res="",
                        unit=unit, trials=len(vals), flag=""))
    for ev, n in EVENTS:
        for c, _ in COLS:
            name = "%s.wakeup.%s%d" % (c, ev, n)
            rounds, _ = _read(raw, name)
            if not rounds:
                continue
            v = rounds[-1]
            for k in ("wakeup_p50", "wakeup_p90", "wakeup_max", "wakeup_mean"):
                if k in v:
                    rec(name, c, k, [v[k]], "us")
            for k in ("spin_min", "spin_max"):
                if k in v:
                    rec(name, c, k, [v[k]], "count")
    for w in WORKERS:
        for c, _ in COLS:
            name = "%s.steal.w%d" % (c, w)
            rounds, _ = _read(raw, name)
            rounds = [r for r in (rounds or []) if "steal_cpu_ms" in r]
            for k in ("steal_cpu_ms", "steal_wall_ms", "steal_user_ms", "steal_sys_ms"):
                if rounds:
                    rec(name, c, k[:-3], [r[k] for r in rounds], "ms")
    return out
