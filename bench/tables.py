#!/usr/bin/env python3
"""tables.py -- turn bench/run.sh's raw output into the metric tables.

    tables.py RAWDIR TABLES.md PLOT.svg

RAWDIR holds one file per run (see run.sh), each in the protocol of
bench/bench.h: "T name median min max ops trials" timings in ns per
operation, "S name v1 ... vk" the same trials in the order they ran, and
"V name values..." plain values.  Writes the Markdown tables and an SVG
plot of switch cost against live stack depth.  Every cell that could not
be measured says why; nothing is estimated in its place.  A derived
figure (a difference) is taken within rounds and shown only above its
resolution, and a timing whose spread swamps it is marked (bench/stats.py):
no cell shows a negative or impossible figure.  The format of the files
is in bench/README.md.
"""
import math
import os
import sys
import echo_tables  # bench/echo_tables.py, beside this file
import svgplot      # bench/svgplot.py
import stats        # bench/stats.py: resolution and noise
import results      # bench/results.py: results.csv and results.json
import spin_tables  # bench/spin_tables.py: threads beside spinners

COLS = ["sep", "cop", "k11", "pth"]
HEAD = {
    "sep": "green, separate stacks",
    "cop": "green, copied stacks",
    "k11": "1:1 (musl), one CPU",
    "pth": "GNU Pth",
}
DEPTHS = [512, 1024, 2048, 4096]          # Marovich's fit points, bytes

# The derived rows (bench/micro.c's bench_derived): [(coef, metric)]
LOCK_MANIP = [(1, "mutex_contention"), (-1, "yield_busy")]
EVENT_MANIP = [(1, "cond_signal_out"), (-2, "yield_busy")]
EVENT_LOCK_MANIP = [(1, "cond_signal_in"), (-2, "yield_busy")]
TIMED_EXTRA = [(0.5, "cond_signal_out_timed"), (-0.5, "cond_signal_out"),
               (0.5, "cond_signal_in_timed"), (-0.5, "cond_signal_in")]
DERIVED = [("lock_manip", LOCK_MANIP), ("event_manip", EVENT_MANIP),
           ("event_lock_manip", EVENT_LOCK_MANIP), ("timed_extra", TIMED_EXTRA)]

# Marovich 1991 (HPL-91-02, section 3 and Appendix C), microseconds,
# HP 9000 Series 370 / 835, stacks not copied.
MAROVICH = [
    ("Process-context switch (Appendix C)", "procswitch", 584.2, 135.7),
    ("Yield, busy (thread switch)", "yield_busy", 53.8, 22.2),
    ("Yield, not busy", "yield_notbusy", 4.0, 2.19),
    ("Scheduler overhead (tick handler)", "tick", 4.7, 2.85),
    ("Mutex lock/unlock, no contention", "mutex_nocontention", 10.4, 12.76),
    ("Mutex lock/unlock, long-term contention", "mutex_contention", 66.1, 35.7),
    ("Lock manipulation (derived)", "lock_manip", 12.3, 13.7),
    ("Condition signal, no waiter", "cond_signal_nowaiter", 3.6, 1.81),
    ("Condition broadcast, no waiter", "cond_broadcast_nowaiter", 3.3, 2.64),
    ("Condition signal, waiter, outside", "cond_signal_out", 78.0, 40.5),
    ("Condition signal, waiter, inside", "cond_signal_in", 196, 94.4),
    ("Event manipulation (derived)", "event_manip", 24.2, 18.3),
    ("Condition signal, timed waiter, outside", "cond_signal_out_timed", 169.3, 100.7),
    ("Condition signal, timed waiter, inside", "cond_signal_in_timed", 275, 155.5),
    ("Once-only overhead (calculated)", "once", 0.42, 0.40),
    ("Self-identification (calculated)", "self", 0.06, 0.20),
]


class Run:
    """One raw file: timings T[name] = (med, lo, hi, ops, k) (the last of
    that name; Tall[name] every one, in order, for files that several runs
    append to), their trials S[name] in the order taken, values V."""

    def __init__(self, path):
        self.T, self.V, self.failed = {}, {}, None
        self.S, self.Tall = {}, {}
        self.present = os.path.exists(path)
        if not self.present:
            return
        with open(path) as f:
            for line in f:
                w = line.split()
                if not w:
                    continue
                if w[0] == "T" and len(w) >= 7:
                    self.T[w[1]] = (float(w[2]), float(w[3]), float(w[4]),
                                    float(w[5]), int(w[6]))
                    self.Tall.setdefault(w[1], []).append(self.T[w[1]])
                elif w[0] == "S" and len(w) >= 3:
                    self.S[w[1]] = [float(x) for x in w[2:]]
                elif w[0] == "V" and len(w) >= 2:
                    self.V.setdefault(w[1], []).append(w[2:])
                elif line.startswith("# failed:"):
                    self.failed = line[len("# failed:"):].strip()


class Raw:
    def __init__(self, d):
        self.d = d
        self.cache = {}
        self.info = {}
        p = os.path.join(d, "info")
        if os.path.exists(p):
            for line in open(p):
                k, _, v = line.rstrip("\n").partition(" ")
                self.info[k] = v
        # the rows the metric keys fill (`bench-green list`, kept by run.sh)
        self.labels = {}
        p = os.path.join(d, "keys")
        if os.path.exists(p):
            for line in open(p):
                if line.strip() and not line.startswith("#"):
                    k, _, row = line.rstrip("\n").partition(" ")
                    self.labels[k] = row.strip().split("; made from ")[0]

    def run(self, name):
        if name not in self.cache:
            self.cache[name] = Run(os.path.join(self.d, name))
        return self.cache[name]

    def t(self, name, metric):
        return self.run(name).T.get(metric)

    def s(self, name, metric):
        return self.run(name).S.get(metric)

    def label(self, key, default):
        return self.labels.get(key, default)


# ---- formatting

def num(x):
    a = abs(x)
    if a == 0:
        return "0"
    if a >= 100:
        return "%.0f" % x
    if a >= 10:
        return "%.1f" % x
    return "%.2f" % x


def scale_for(ns):
    if ns >= 1e9:
        return 1e9, "s"
    if ns >= 1e6:
        return 1e6, "ms"
    if ns >= 1e4:
        return 1e3, "µs"
    return 1, "ns"


def cell(t, full_trials=None):
    """median (min–max) unit, and the trial count if it is short."""
    if t is None:
        return None
    med, lo, hi, _, k = t
    div, unit = scale_for(med)
    s = "%s (%s–%s) %s" % (num(med / div), num(lo / div), num(hi / div), unit)
    if full_trials and k < full_trials:
        s += " [%d trial%s]" % (k, "" if k == 1 else "s")
    if stats.noisy(med, lo, hi):
        s += " " + stats.NOISY
    return s


def dval(d, unit=""):
    """A figure taken within rounds (stats.Diff): its value, or "below
    resolution (< X)" when the rounds cannot tell it from nothing."""
    if d is None:
        return None
    if not d.shown:
        return "below resolution (< %s%s)" % (val(d.bound()), unit)
    return val(d.value) + unit


def val(ns):
    if ns is None:
        return None
    div, unit = scale_for(abs(ns))
    return "%s %s" % (num(ns / div), unit)


def ratio(a, b):
    if isinstance(a, stats.Diff):
        a = a.value if a.shown else None
    if isinstance(b, stats.Diff):
        b = b.value if b.shown else None
    if a is None or b is None or b <= 0 or a <= 0:
        return "—"
    r = a / b
    return ("%.0f×" if r >= 100 else "%.1f×" if r >= 10 else "%.2f×") % r


def plain_ratio(a, b):
    """The ratio of two timings' medians; "—" when either is missing or
    marked noisy (its spread swamps it, and so would the ratio's)."""
    if not a or not b or stats.noisy(*a[:3]) or stats.noisy(*b[:3]):
        return "—"
    return ratio(a[0], b[0])


# ---- the tables

class Tables:
    def __init__(self, raw):
        self.raw = raw
        info = raw.info
        self.trials = int(info.get("trials", "11"))
        self.copied = info.get("copied") == "yes"
        self.tick = info.get("tick") == "yes"
        # Pth was built (the run names its version), whichever phases ran
        self.pth = bool(info.get("pth")) or raw.run("pth.micro").present
        self.na = {
            "cop": "n/a (the probe found no copied stacks)",
            "pth": "n/a (libpth-dev not installed)",
        }
        self.out = []

    def w(self, s=""):
        self.out.append(s)

    def have(self, col):
        if col == "cop":
            return self.copied
        if col == "pth":
            return self.pth
        return True

    # median of a micro metric in a column (None if absent)
    def med(self, col, metric):
        t = self.raw.t(col + ".micro", metric)
        return t[0] if t else None

    def copied_fit(self, metric):
        """(fixed, per KB) of a switching metric with copied stacks, as
        stats.Diff figures: the fit of the medians at the four depths,
        each with the spread of the per-round fits as its resolution."""
        series = []
        for d in DEPTHS:
            v = self.raw.s("cop.micro.d%d" % d, metric)
            if not v:
                return None
            series.append((d / 1024.0, v))
        return stats.fit_rounds(series)

    def micro_cell(self, col, metric, switch=False, pth_missing=None):
        if not self.have(col):
            return self.na[col]
        if col == "cop" and switch:
            f = self.copied_fit(metric)
            if f is None:
                return "n/a (not measured)"
            return "%s + %s" % (dval(f[0]), dval(f[1], "/KB"))
        t = self.raw.t(col + ".micro", metric)
        if t is None:
            if col == "pth" and pth_missing:
                return "n/a (%s)" % pth_missing
            return "n/a (not measured)"
        return cell(t)

    def floor(self, run, metric):
        """The clock's resolution per operation of a timing: the smallest
        step the probe saw the clock take, over the operations of a trial."""
        res = self.raw.run("probe.sep").V.get("clock_resolution")
        t = self.raw.t(run, metric)
        if not res or not t or not t[3]:
            return 0.0
        return float(res[0][0]) / t[3]

    def derived(self, col, terms):
        """sum of coef·metric over terms [(coef, metric)], taken within
        each round of the column's micro run (copied stacks: the run at no
        extra depth): a stats.Diff, or None if not measured."""
        if not self.have(col):
            return None
        run = col + ".micro"
        r = stats.rounds([(c, self.raw.s(run, m)) for c, m in terms])
        if r is None:
            return None
        return stats.Diff(r, max(self.floor(run, m) for _, m in terms))

    def derived_cell(self, col, terms):
        if not self.have(col):
            return self.na[col]
        d = self.derived(col, terms)
        return dval(d) if d is not None else "n/a (not measured)"

    def row(self, name, cells, r=None):
        self.w("| %s | %s | %s |" % (name, " | ".join(cells), r if r else "—"))

    # ---- stack allocation granularity
    def stack_info(self, col):
        if not self.have(col):
            return None
        v = self.raw.run(col + ".micro").V.get("stack_usable", [])
        got = {}
        for w in v:
            if len(w) == 2:
                got[int(w[0])] = int(w[1])
        return got

    def granularity(self, col):
        g = self.stack_info(col)
        if g is None:
            return self.na[col]
        if not g:
            return "n/a (not measured)"
        sizes = set(v for k, v in g.items() if k)
        if len(sizes) == 1:
            return "none: every request reports the one shared run stack (%d B)" % sizes.pop()
        if 65536 in g and 65537 in g and g[65537] - g[65536] == 1:
            step = "1 byte"
        else:
            step = "page (4 KiB)"
        return "%s; 16 KiB request → %s B usable; 2 KiB → %s" % (
            step, g.get(16384, "?"),
            "%s B" % g[2048] if 2048 in g else "refused (below PTHREAD_STACK_MIN)")

    # ---- maximum threads
    def maxthreads(self, col):
        if not self.have(col):
            return self.na[col], self.na[col]
        r = self.raw.run(col + ".maxthreads")
        m = r.V.get("maxthreads")
        if not m:
            return "n/a (%s)" % (r.failed or "not measured"), "n/a"
        count, stop, rss, vsz, kst, secs = m[0][:6]
        err = r.V.get("maxthreads_error", [["none"]])[0]
        count = int(count)
        if stop == "cap":
            c = "≥ %d (stopped at the cap)" % count
        elif stop == "time":
            c = "≥ %d (stopped after %s s)" % (count, secs)
        else:
            c = "%d (then: %s)" % (count, " ".join(err))
        mem = "%.1f KiB resident, %.1f KiB virtual" % (float(rss) / 1024, float(vsz) / 1024)
        k = float(kst)
        if k > 1024:
            mem += ", + %.1f KiB kernel stack" % (k / 1024)
        return c, mem

    # ---- ticks
    def p10(self, run):
        p = self.raw.run(run).V.get("preempt_p10")
        return "; 10th percentile %s" % val(float(p[0][0])) if p else ""

    def tick_cells(self):
        """(scheduler overhead, preemptive switch) per column."""
        sched, pre = {}, {}
        for col in COLS:
            if not self.have(col):
                sched[col] = pre[col] = self.na[col]
        if self.tick:
            # two spinning threads, quantum 1 ms against cooperative: the
            # extra gaps that are not hand-overs are ticks that did not
            # switch (Marovich's "no rescheduling decision")
            # a preemption is one tick plus one switch: take the switch
            # (yield busy) away from the 10th-percentile preemption gap
            p = self.raw.run("sep.ticks.q1").V.get("preempt_p10")
            d = self.tick_cost()
            if p and d:
                sched["sep"] = "%s (derived: preemptive switch, 10th percentile %s, − yield busy)" % (
                    dval(d), val(float(p[0][0])))
            else:
                sched["sep"] = "n/a (no preemption seen)"
            t = self.raw.t("sep.ticks.q1", "preempt_switch")
            pre["sep"] = cell(t) + " (1 ms quantum)%s" % self.p10("sep.ticks.q1") if t else "n/a (no preemption seen)"
        else:
            sched["sep"] = pre["sep"] = "n/a (the probe saw no time-slice tick)"
        if self.copied:
            sched["cop"] = pre["cop"] = "n/a (measured with separate stacks only)"
        a = self.raw.run("k11.ticks").V.get("alone")
        if a:
            n, stolen, medgap, dur = (float(x) for x in a[0][:4])
            sched["k11"] = "%s per interruption, %.0f/s (kernel timer tick and other interrupts)" % (
                val(medgap), n / (dur / 1e9))
        else:
            sched["k11"] = "n/a (not measured)"
        t = self.raw.t("k11.ticks", "preempt_switch")
        pre["k11"] = cell(t) + self.p10("k11.ticks") if t else "n/a (no preemption seen)"
        if self.pth:
            sched["pth"] = pre["pth"] = "n/a (Pth does not time-slice)"
        return sched, pre

    def tick_cost(self):
        """A tick's cost: the 10th-percentile preemption gap less a switch
        (each round's yield busy), a stats.Diff; None without preemption."""
        p = self.raw.run("sep.ticks.q1").V.get("preempt_p10")
        yb = self.raw.s("sep.micro", "yield_busy")
        if not p or not yb:
            return None
        return stats.Diff([float(p[0][0]) - y for y in yb])

    # ---- process switch (Marovich Appendix C)
    def procswitch(self):
        """(pingpong, io, getpid timings, the switch as a stats.Diff taken
        within each round), or None."""
        r = self.raw.run("proc")
        pp, io, gp = (r.T.get(m) for m in ("proc_pingpong", "proc_io", "getpid"))
        if not (pp and io and gp):
            return None
        d = stats.rounds([(1, r.S.get("proc_pingpong")), (-1, r.S.get("proc_io")),
                          (-0.5, r.S.get("getpid"))])
        if d is None:
            return None
        return pp, io, gp, stats.Diff(d, self.floor("proc", "proc_pingpong"))

    def main_table(self):
        T = self.trials
        cols = COLS
        self.w("| metric | " + " | ".join(HEAD[c] for c in cols) + " | 1:1 ÷ green |")
        self.w("|---|" + "---:|" * (len(cols) + 1))

        def timing(name, metric, switch=False, pth_missing=None):
            cells = [self.micro_cell(c, metric, switch, pth_missing) for c in cols]
            a, b = (self.raw.t(c + ".micro", metric) for c in ("k11", "sep"))
            self.row(self.raw.label(metric, name), cells, plain_ratio(a, b))

        def deriv(name, key, terms):
            cells = [self.derived_cell(c, terms) for c in cols]
            self.row(self.raw.label(key, name), cells,
                     ratio(self.derived("k11", terms), self.derived("sep", terms)))

        timing("Once-only overhead (`pthread_once`, done)", "once")
        timing("Self-identification (`pthread_self`)", "self")
        self.row("Stack allocation granularity", [self.granularity(c) for c in cols])
        mt = {c: self.maxthreads(c) for c in cols}
        self.row("Maximum threads (16 KiB stacks, each blocked on a condition)", [mt[c][0] for c in cols])
        self.row("Memory per thread", [mt[c][1] for c in cols])
        timing("Yield, not busy", "yield_notbusy")
        timing("Yield, busy (one switch)", "yield_busy", True)
        sched, pre = self.tick_cells()
        self.row("Scheduler overhead (tick handler)", [sched[c] for c in cols])
        self.row("Preemptive switch (tick + switch)", [pre[c] for c in cols])
        timing("Mutex lock/unlock, no contention", "mutex_nocontention")
        timing("Mutex lock/unlock, long-term contention", "mutex_contention", True)
        deriv("Lock manipulation (derived: long-term − yield busy)", "lock_manip", LOCK_MANIP)
        timing("Condition signal, no waiter", "cond_signal_nowaiter")
        timing("Condition broadcast, no waiter", "cond_broadcast_nowaiter")
        timing("Condition signal, waiter, outside critical section", "cond_signal_out", True)
        timing("Condition signal, waiter, inside critical section", "cond_signal_in", True)
        timing("Condition signal, timed waiter, outside", "cond_signal_out_timed", True)
        timing("Condition signal, timed waiter, inside", "cond_signal_in_timed", True)
        deriv("Event manipulation (derived: signal outside − 2 × yield busy)", "event_manip",
              EVENT_MANIP)
        deriv("Event + lock manipulation (derived: signal inside − 2 × yield busy)",
              "event_lock_manip", EVENT_LOCK_MANIP)
        deriv("Timed-wait extra (derived: mean of timed − untimed)", "timed_extra", TIMED_EXTRA)
        ps = self.procswitch()
        if ps:
            cells = []
            for c in cols:
                yb = self.med(c, "yield_busy")
                if not self.have(c):
                    cells.append(self.na[c])
                elif c == "k11":
                    cells.append("%s; ÷ 1:1 thread switch = %s" % (dval(ps[3]), ratio(ps[3], yb)))
                else:
                    cells.append("÷ this column's yield busy = %s" % ratio(ps[3], yb))
            self.row("Process-context switch (two processes, Appendix C)", cells)
        else:
            self.row("Process-context switch (two processes, Appendix C)",
                     ["n/a (%s)" % (self.raw.run("proc").failed or "not measured")] * len(cols))
        timing("Thread create + join", "create_join")

    def tls_rounds(self, col, which):
        """The medians of the rounds of one TLS pair's side (run.sh runs
        the two programs alternately, appending to one file each)."""
        return [t[0] for t in self.raw.run("tls.%s.%s" % (col, which)).Tall.get("yield_busy", [])]

    def tls_extra(self, col):
        """A TLS segment's extra cost per switch, taken within each round
        (a stats.Diff), or None."""
        a, b = self.tls_rounds(col, "without"), self.tls_rounds(col, "with")
        r = stats.rounds([(1, b), (-1, a)])
        return stats.Diff(r) if r else None

    def tls_table(self):
        self.w("| yield busy (one switch) | green separate | green copied |")
        self.w("|---|---:|---:|")

        def over_rounds(v):
            return (stats.median(v), min(v), max(v), 0, len(v)) if v else None
        without = [over_rounds(self.tls_rounds(c, "without")) for c in ("sep", "cop")]
        with_ = [over_rounds(self.tls_rounds(c, "with")) for c in ("sep", "cop")]
        self.w("| program without a TLS segment (shared TCB) | %s |" %
               " | ".join(cell(t) if t else "n/a" for t in without))
        self.w("| program with a TLS segment (a TCB per thread) | %s |" %
               " | ".join(cell(t) if t else "n/a" for t in with_))
        self.w("| extra per switch (within each round) | %s |" % " | ".join(
            dval(self.tls_extra(c)) or "n/a" for c in ("sep", "cop")))
        tp = self.raw.run("tls.tp")
        w, a = tp.T.get("tp_wrfsbase"), tp.T.get("tp_arch_prctl")
        self.w()
        self.w("Moving the thread pointer once (x86_64): `wrfsbase` %s, "
               "`arch_prctl(ARCH_SET_FS)` %s." % (
                   cell(w) if w else "unavailable (the kernel does not enable FSGSBASE)",
                   cell(a) if a else "n/a"))

    def pshared_table(self):
        self.w("| waiting process | median | p10 | p90 | p99 | min | max | samples |")
        self.w("|---|---:|---:|---:|---:|---:|---:|---:|")
        for label, run, metric in (
                ("green, idle (futex_waitv in the idle loop)", "sep.pshared", "pshared_wake"),
                ("green, busy (another thread computes: noticed at a tick)", "sep.pshared.busy",
                 "pshared_wake_busy"),
                ("1:1 (musl), idle", "k11.pshared", "pshared_wake")):
            r = self.raw.run(run)
            t = r.T.get(metric)
            pct = r.V.get(metric + "_pct")
            if not t:
                self.w("| %s | n/a (%s) |||||||" % (label, r.failed or "not measured"))
                continue
            p = [val(float(x)) for x in pct[0][:3]] if pct and len(pct[0]) >= 3 else ["n/a"] * 3
            self.w("| %s | **%s** | %s | %s | %s | %s | %s | %d |" % (
                label, val(t[0]), p[0], p[1], p[2], val(t[1]), val(t[2]), t[4]))

    def procswitch_table(self):
        ps = self.procswitch()
        if not ps:
            self.w("Not measured.")
            return
        pp, io, gp, sw = ps
        self.w("| | two processes: I/O + switch | one process: same I/O | ½ getpid | switch |")
        self.w("|---|---:|---:|---:|---:|")
        self.w("| Series 370 (1991) | 1356.8 µs | 758.4 µs | 28.4 µs | 584.2 µs |")
        self.w("| Series 835 (1991) | 499.0 µs | 362.1 µs | 2.4 µs | 135.7 µs |")
        self.w("| this machine | %s | %s | %s | **%s** |" % (cell(pp), cell(io), val(gp[0] / 2), dval(sw)))

    def pingpong_size(self, f):
        """(games, iterations) of a Ping-Pong run, from any column's output."""
        for c in COLS:
            for name in self.raw.run("%s.%s" % (c, f)).T:
                if name.startswith("pingpong_") and not name.endswith("_setup"):
                    g, _, i = name[len("pingpong_"):].partition("x")
                    return int(g), int(i)
        for line in open(os.path.join(self.raw.d, "info")):
            if line.startswith("pp_" + f.split(".")[1] + " "):
                g, i = line.split()[1:3]
                return int(g), int(i)
        return None, None

    def workload_rows(self):
        T = self.trials
        cols = COLS
        self.w("| workload | " + " | ".join(HEAD[c] for c in cols) + " | 1:1 ÷ green |")
        self.w("|---|" + "---:|" * (len(cols) + 1))

        def wl(name, f, metric, per=None):
            cells = []
            for c in cols:
                if not self.have(c):
                    cells.append(self.na[c])
                    continue
                r = self.raw.run("%s.%s" % (c, f))
                t = r.T.get(metric)
                if t is None:
                    cells.append("n/a (%s)" % (r.failed or "not measured"))
                    continue
                s = cell(t, T)
                if per:
                    s += "; %s/iteration" % val(t[0] / per)
                cells.append(s)
            a = self.raw.t("k11." + f, metric)
            b = self.raw.t("sep." + f, metric)
            self.row(name, cells, plain_ratio(a, b))

        for f in ("pp.one", "pp.many"):
            g, i = self.pingpong_size(f)
            if g is None:
                self.row("Ping-Pong (%s)" % f, ["n/a (not measured)"] * len(cols))
                continue
            m = "pingpong_%dx%d" % (g, i)
            if g == 1:
                wl("Ping-Pong, 1 game × %d iterations (play)" % i, f, m, float(i))
            else:
                wl("Ping-Pong, %d games × %d iterations (play; %d threads, 32 KiB stacks)"
                   % (g, i, 2 * g), f, m, float(g * i))
                wl("Ping-Pong, %d games: creating the %d threads" % (g, 2 * g), f, m + "_setup")
        for n in (250, 500, 1000, 2000):
            wl("Shared data under one mutex: %d threads × 10 000 updates" % n,
               "shared%d" % n, "shared_%d" % n, n * 10000.0)
        for b, what in ((5000, "shorter than"), (10000, "equal to"), (40000, "longer than")):
            bound = None
            r = self.raw.run("sep.bursty%d" % b)
            v = r.V.get("bursty_10000_%d_bound" % b)
            if v:
                bound = float(v[0][0])
            name = "Bursty: 4 threads × 4 rounds, 10 ms idle, burst %d ms (%s idle)" % (b // 1000, what)
            if bound:
                name += "; one-CPU bound %s" % val(bound)
            wl(name, "bursty%d" % b, "bursty_10000_%d" % b)

    def marovich_table(self):
        self.w("| metric | Series 370 (1991) | Series 835 (1991) | green, separate stacks | 835 ÷ green |")
        self.w("|---|---:|---:|---:|---:|")
        ps = self.procswitch()
        for name, key, m370, m835 in MAROVICH:
            now = None
            if key == "procswitch":
                now = ps[3] if ps else None
            elif key == "tick":
                now = self.tick_cost() if self.tick else None
            elif key == "lock_manip":
                now = self.derived("sep", LOCK_MANIP)
            elif key == "event_manip":
                now = self.derived("sep", EVENT_MANIP)
            else:
                t = self.raw.t("sep.micro", key)
                now = stats.Diff.exact(t[0]) if t else None   # a plain timing
            if key == "procswitch":
                name += " (an OS figure, not green's)"
            shown = dval(now) if now is not None else "n/a"
            r = ratio(m835 * 1000, now) if now else "—"
            if now is not None and key not in ("procswitch", "tick", "lock_manip", "event_manip") \
                    and stats.noisy(*t[:3]):
                shown, r = shown + " " + stats.NOISY, "—"   # swamped by its spread
            self.w("| %s | %s µs | %s µs | %s | %s |" % (name, m370, m835, shown, r))
        yb = self.med("sep", "yield_busy")
        yk = self.med("k11", "yield_busy")
        if ps and yb:
            self.w("")
            self.w("Process switch ÷ coroutine switch: Series 370 %.1f×, Series 835 %.1f×, "
                   "this machine %s (green, separate stacks)%s." % (
                       584.2 / 53.8, 135.7 / 22.2, ratio(ps[3], yb),
                       "; process switch ÷ 1:1 kernel-thread switch %s" % ratio(ps[3], yk) if yk else ""))

    def stack_table(self):
        cols = [c for c in COLS if self.have(c) and c != "cop"]
        infos = {c: self.stack_info(c) for c in cols}
        reqs = sorted(set(k for c in cols for k in (infos[c] or {})))
        self.w("| requested stack | " + " | ".join(HEAD[c] for c in cols) + " |")
        self.w("|---:|" + "---:|" * len(cols))
        for r in reqs:
            name = "default (no attribute)" if r == 0 else "%d B" % r
            self.w("| %s | %s |" % (name, " | ".join(
                "%s B" % infos[c][r] if r in (infos[c] or {}) else "—" for c in cols)))

    def explore_table(self):
        """GREEN_SCHED: per-decision cost and --sched-points slowdown
        (bench/explore.c; raw/explore.*: one "name ns" line per trial)."""
        import os
        import statistics

        def med(name):
            path = os.path.join(self.raw.d, "explore." + name)
            try:
                with open(path) as f:
                    v = [float(l.split()[1]) for l in f if l.strip() and not l.startswith("#")]
            except OSError:
                return None
            return statistics.median(v) if v else None

        y = {s: med("yield." + s) for s in ("none", "random:1", "pct:1")}
        c = med("cpu.none")
        sp = {s: med("cpu-sp." + s) for s in ("none", "random:1", "pct:1")}
        mp = {s: med("cpu-mp." + s) for s in ("none", "random:1", "pct:1")}
        m = med("mem.none")
        mm = {s: med("mem-mp." + s) for s in ("none", "random:1", "pct:1")}
        if y["none"] is None:
            return
        f = lambda x: "n/a" if x is None else "%.1f" % x
        r = lambda x: "n/a" if x is None or not c else "%.1fx" % (x / c)
        self.w("## Seeded schedules (GREEN_SCHED)")
        self.w()
        self.w("`bench/explore.c`, green, separate stacks, median of the trials (process CPU "
               "time: under GREEN_SCHED the other clocks are virtual). A yield between "
               "two threads is one scheduling decision; the CPU-bound loop (16 branches per "
               "round) runs beside an exited thread, built without and with "
               "`green-cc --sched-points` (a call per basic block) and "
               "`--sched-points=memory` (a call per memory access: none in this loop, "
               "whose values stay in registers); the memory loop adds into 16 words of "
               "an array another thread filled, so under `--sched-points=memory` each "
               "of its accesses is a scheduling point.")
        self.w()
        self.w("| | GREEN_SCHED unset | random:1 | pct:1 |")
        self.w("|---|---|---|---|")
        self.w("| yield, ns per decision | %s | %s | %s |" % (f(y["none"]), f(y["random:1"]), f(y["pct:1"])))
        self.w("| CPU loop, ns per round, plain build | %s | | |" % f(c))
        self.w("| CPU loop, --sched-points build | %s (%s) | %s (%s) | %s (%s) |" % (
            f(sp["none"]), r(sp["none"]), f(sp["random:1"]), r(sp["random:1"]),
            f(sp["pct:1"]), r(sp["pct:1"])))
        if mp["none"] is not None:
            rm = lambda x: "n/a" if x is None or not m else "%.1fx" % (x / m)
            self.w("| CPU loop, --sched-points=memory build | %s (%s) | %s (%s) | %s (%s) |" % (
                f(mp["none"]), r(mp["none"]), f(mp["random:1"]), r(mp["random:1"]),
                f(mp["pct:1"]), r(mp["pct:1"])))
            self.w("| memory loop, ns per round, plain build | %s | | |" % f(m))
            self.w("| memory loop, --sched-points=memory build | %s (%s) | %s (%s) | %s (%s) |" % (
                f(mm["none"]), rm(mm["none"]), f(mm["random:1"]), rm(mm["random:1"]),
                f(mm["pct:1"]), rm(mm["pct:1"])))
        self.w()

    def noise_lines(self):
        """The header's account of the run's noise: the spread across
        rounds of the micro-metrics, and the marks used below."""
        spreads = []
        for c in COLS:
            r = self.raw.run(c + ".micro")
            for m, t in r.T.items():
                if t[0] > 0:
                    spreads.append(((t[2] - t[1]) / t[0], m, c))
        out = []
        if spreads:
            spreads.sort()
            worst = spreads[-1]
            out.append("- Noise: the spread across rounds (max − min, over the median) of the "
                       "micro-metrics is %.0f %% at the median, %.0f %% at worst (%s, %s); %d of "
                       "%d cells are marked %s, their spread larger than their value." % (
                           100 * stats.median([x[0] for x in spreads]), 100 * worst[0], worst[1],
                           HEAD[worst[2]], sum(1 for x in spreads if x[0] > 1), len(spreads),
                           stats.NOISY))
        out.append("- Derived rows (a difference of two metrics) are taken within each round "
                   "and the median over rounds is shown; a figure within its resolution (the "
                   "interquartile range of its per-round values) reads \"below resolution "
                   "(< X)\", X being the largest value the rounds allow. %s marks a timing whose "
                   "spread (max − min) is larger than the value itself." % stats.NOISY)
        return out

    def write(self, path):
        info = self.raw.info
        quick = info.get("quick") == "yes"
        self.w("# IEEE 1003.4 metric tables: green, 1:1 and GNU Pth")
        self.w()
        self.w("Written by `bench/run.sh`%s; how each metric is measured and what "
               "the derived rows mean: `bench/README.md` and `docs/tables.md`." %
               (" --quick" if quick else ""))
        self.w()
        self.w("- CPU: %s (%s online); all runs pinned to CPU %s with taskset" %
               (info.get("cpu", "?"), info.get("ncpu", "?"), info.get("pinned", "?")))
        self.w("- Kernel: %s" % info.get("kernel", "?"))
        self.w("- Compiler: %s, -O2, static, via green-cc (green and 1:1)" % info.get("cc", "?"))
        if self.pth:
            self.w("- GNU Pth: %s, -O2, dynamic, glibc" % info.get("pth", "?"))
        self.w("- Date: %s; run took %s s; load average %s at the start, %s at the end" %
               (info.get("date", "?"), info.get("seconds", "?"),
                info.get("load_start", "?"), info.get("load_end", "?")))
        self.w("- Micro-metrics: median (min–max) over %s trials of ~%.0f ms each; "
               "workloads: over up to %s trials, at least %s, fewer when a workload "
               "passes %s s (the count is shown when short)" %
               (info.get("trials", "?"), 30 * float(info.get("scale", "1")),
                info.get("trials", "?"), info.get("min_trials", "?"), info.get("budget", "?")))
        self.w("- Copied stacks: %s. Time-slice tick: %s." % (
            "measured (the probe: a thread created under GREEN_STACKS=copied reports copied "
            "stacks through pthread_getattr_np)" if self.copied else
            "n/a: the probe's thread created under GREEN_STACKS=copied did not report a copied stack",
            "measured" if self.tick else "not seen by the probe, so green's tick rows are n/a"))
        self.w("- Copied-stack cells are *fixed + marginal per KB of live stack*, a least-squares "
               "line through live depths of 0.5, 1, 2 and 4 KB, as Marovich did.")
        for line in self.noise_lines():
            self.w(line)
        self.w()
        self.w("## The IEEE 1003.4 metrics (Marovich, section 3)")
        self.w()
        self.main_table()
        self.w()
        self.w("## Per-thread TLS: what moving the thread pointer costs")
        self.w()
        self.w("A program with `__thread` variables runs each green thread on a "
               "thread control block of its own and moves the thread pointer on "
               "every switch; one without keeps one shared TCB (`src/core/stack/tls.c`). "
               "Yield busy (one switch) of the same program without and with a TLS "
               "segment (`bench/tls.c`), the two programs alternated in rounds (the extra "
               "taken within each round):")
        self.w()
        self.tls_table()
        self.w()
        self.w("## Process-context switch (Marovich, Appendix C)")
        self.w()
        self.w("Two processes pass one byte back and forth through two pipes; "
               "subtract the same writes and reads in one process and half a "
               "`getpid` system call.")
        self.w()
        self.procswitch_table()
        self.w()
        self.w("## Cross-process wake-up (process-shared mutex + condition variable)")
        self.w()
        self.w("Two processes ping-pong on a process-shared mutex and condition variable "
               "(`bench pshared`); a sample is one process's signal to the other's waiter "
               "running with the mutex (docs/sync.md, section 'Process-shared objects').")
        self.w()
        self.pshared_table()
        self.w()
        self.w("## Workloads: Harman's Ping-Pong, shared data, bursty threads")
        self.w()
        self.workload_rows()
        self.w()
        self.w("## Stack allocation: what a thread gets for a request")
        self.w()
        self.w("Usable stack: from the top of the thread's stack (`pthread_getattr_np`) down to "
               "the guard page (`/proc/self/maps`); Pth: `PTH_ATTR_STACK_SIZE`.")
        self.w()
        self.stack_table()
        self.w()
        self.explore_table()
        for line in spin_tables.lines(self.raw.d):   # bench/spin.sh's runs
            self.w(line)
        for line in echo_tables.lines(self.raw.d):   # bench/echo.sh's runs
            self.w(line)
        self.w("## A thread-pool HTTP server (bench/http.sh)")
        self.w()
        h = http_table(self.raw.d)
        if h is None:
            why = "not run"
            fp = os.path.join(self.raw.d, "http.failed")
            if os.path.exists(fp):
                why = open(fp).read().strip() or why
            self.w("n/a (%s)" % why)
        else:
            self.out.extend(h)
            self.w()
            self.w("`server.svg`: requests/s and p99 latency against connections, one line per "
                   "build, and the echo rates of each build.")
        self.w()
        self.w("## Then and now: Marovich's 1991 figures beside green")
        self.w()
        self.marovich_table()
        self.w()
        self.w("## Switch cost against live stack depth")
        self.w()
        if self.copied:
            f = self.copied_fit("yield_busy")
            self.w("`stack-depth.svg`: yield-busy switch cost at live stack depths of 0.25–32 KB, "
                   "copied against separate stacks; copied fit over 0.5–4 KB: %s + %s per KB." %
                   (dval(f[0]), dval(f[1])) if f else "`stack-depth.svg`.")
        else:
            self.w("`stack-depth.svg`: the probe found no copied stacks, so the plot shows only "
                   "the control, separate stacks, which should be flat in the live stack depth.")
        self.w()
        with open(path, "w") as f:
            f.write("\n".join(self.out))


# ---- the HTTP server table (bench/http.sh)

HTTP_COLS = ["sep", "cop", "k11", "glibc"]
HTTP_HEAD = dict(HEAD, k11="1:1 (musl)", glibc="glibc (host cc)",
                 green2="green, 2 processes (SO_REUSEPORT), copied stacks",
                 glibc2="glibc (host cc), 1 process")
# both CPUs: servers and client on CPUs 0 and 1 (bench/http.sh)
HTTP_COLS2 = ["green2", "glibc2"]


def wrk_seconds(s):
    """wrk's latency figure ("258.82ms", "1.54s", "950.00us") in seconds."""
    for unit, f in (("us", 1e-6), ("ms", 1e-3), ("s", 1.0), ("m", 60.0)):
        if s.endswith(unit):
            return float(s[:-len(unit)]) * f
    return float(s)


class WrkRun:
    """One trial of bench/http.sh: wrk's report and the server's VmHWM."""

    def __init__(self, path):
        self.rps = self.p99 = self.hwm = self.requests = None
        self.errors = self.non2xx = 0
        self.load = None
        self.accepted = self.queued = None
        self.failed = None
        self.workers = None
        for line in open(path):
            w = line.split()
            if line.startswith("# failed:"):
                self.failed = line[len("# failed:"):].strip()
            elif line.startswith("# hwm_kb") and len(w) > 2:
                self.hwm = int(w[2])
            elif line.startswith("# load") and len(w) > 2:
                self.load = float(w[2])
            elif line.startswith("# workers") and len(w) > 2:
                self.workers = int(w[2])
            elif line.startswith("# accepted") and len(w) > 2:
                self.accepted = int(w[2])
            elif line.startswith("# listen_queue") and len(w) > 2 and w[2].isdigit():
                self.queued = int(w[2])
            elif line.startswith("Requests/sec:"):
                self.rps = float(w[1])
            elif len(w) == 2 and w[0] == "99%":
                self.p99 = wrk_seconds(w[1])
            elif "requests in" in line and w[0].isdigit():
                self.requests = int(w[0])
            elif line.strip().startswith("Socket errors:"):
                # connect A, read B, write C, timeout D
                self.errors = sum(int(x.strip(",")) for x in w[3::2])
                self.error_text = line.strip()
            elif line.startswith("Non-2xx or 3xx responses:"):
                self.non2xx = int(w[-1])

    def ok(self):
        return self.failed is None and self.rps is not None


median = stats.median


def kreq(x):
    return "%.1fk" % (x / 1000) if x >= 1000 else "%.0f" % x


def latency(sec):
    if sec >= 1:
        return "%.2f s" % sec
    if sec >= 1e-3:
        return "%.1f ms" % (sec * 1e3)
    return "%.0f µs" % (sec * 1e6)


def http_rows(d, conns, cols, trials, greens, glibc, w):
    """The table's lines for columns cols, one group of rows per
    connection count; the ratio: the best of greens to glibc."""
    w("| connections | | " + " | ".join(HTTP_HEAD[c] for c in cols) +
      " | best green ÷ glibc |")
    w("|---|---|" + "---:|" * (len(cols) + 1))
    for n in conns:
        runs = {}
        for c in cols:
            runs[c] = []
            for i in range(1, trials + 1):
                f = os.path.join(d, "http.%s.c%d.%d" % (c, n, i))
                if os.path.exists(f):
                    runs[c].append(WrkRun(f))
        workers = next((r.workers for c in cols for r in runs[c] if r.workers), None)

        def good(c):
            return [r for r in runs[c] if r.ok()]

        def cell(c, fmt):
            g = good(c)
            if not g:
                why = next((r.failed for r in runs[c] if r.failed), "not run")
                return "n/a (%s)" % why
            s = fmt(g)
            if len(g) < len(runs[c]):
                why = next(r.failed for r in runs[c] if not r.ok())
                s += " (%d of %d trials; the others: %s)" % (len(g), len(runs[c]), why)
            return s

        def rps(g):
            v = [r.rps for r in g]
            s = kreq(median(v))
            if len(v) > 1:
                s += " (%s–%s)" % (kreq(min(v)), kreq(max(v)))
            return s

        def errs(g):
            e = sum(r.errors for r in g)
            x = sum(r.non2xx for r in g)
            req = sum(r.requests or 0 for r in g)
            return "%d / %d of %d" % (e, x, req)

        def held(g):
            e = [r.accepted for r in g if r.accepted is not None]
            q = [r.queued for r in g if r.queued is not None]
            if not e:
                return "—"
            return "%d / %d" % (median(e), median(q) if q else 0)

        best = [median([r.rps for r in good(c)]) for c in greens if c in cols and good(c)]
        gl = good(glibc) if glibc in cols else []
        glm = median([r.rps for r in gl]) if gl else 0
        ratio_ = "%.2f" % (max(best) / glm) if best and glm else "—"
        label = "%d (%s workers)" % (n, workers) if workers else str(n)
        w("| %s | requests/s | %s | %s |" % (label, " | ".join(cell(c, rps) for c in cols), ratio_))
        w("| | p99 latency | %s | — |" % " | ".join(
            cell(c, lambda g: latency(median([r.p99 for r in g if r.requests])) if any(
                r.requests for r in g) else "none (no request answered)")
            for c in cols))
        w("| | resident (VmHWM) | %s | — |" % " | ".join(
            cell(c, lambda g: "%.1f MiB" % (median([r.hwm or 0 for r in g]) / 1024)) for c in cols))
        w("| | errors / non-2xx of requests | %s | — |" % " | ".join(cell(c, errs) for c in cols))
        w("| | mid-run: connections accepted / in the listen queue | %s | — |" % " | ".join(
            cell(c, held) for c in cols))
        w("| | load average (1 min) | %s | — |" % " | ".join(
            "–".join(sorted({"%.1f" % r.load for r in runs[c] if r.load is not None}, key=float))
            or "—" for c in cols))


def http_table(d):
    """The Markdown lines of the HTTP server table from RAWDIR d (None
    when bench/http.sh did not run)."""
    p = os.path.join(d, "http.info")
    if not os.path.exists(p):
        return None
    info = {}
    for line in open(p):
        k, _, v = line.rstrip("\n").partition(" ")
        info[k] = v
    conns = [int(x) for x in info.get("conns", "").split()]
    cols = [c for c in HTTP_COLS if c in info.get("cols", "").split()]
    trials = int(info.get("trials", "1"))
    out = []
    w = out.append
    w("CivetWeb %s, a thread-pool HTTP server in C (one worker per keep-alive "
      "connection, at least 256 workers), serving one 1 KiB file with keep-alive "
      "and TCP_NODELAY; load from %s (one thread, `--timeout 10s`). The server is "
      "pinned to CPU %s and the client to CPU %s; each trial is a fresh server, a "
      "%s s warm-up and a %s s measured run; median of %d trial%s%s (requests/s: "
      "min–max beside it). GREEN_IO: %s. Load average %s at the start, %s at the end." % (
          info.get("server", "?"), info.get("client", "wrk"), info.get("server_cpu", "?"),
          info.get("client_cpu", "?"), info.get("warm", "?"), info.get("secs", "?"),
          trials, "" if trials == 1 else "s",
          ", in rounds that run every column once" if info.get("order") == "rounds" and trials > 1 else "",
          info.get("green_io", "default"),
          info.get("load_start", "?"), info.get("load_end", "?")))
    if cols:
        w("")
        http_rows(d, conns, cols, trials, ("sep", "cop"), "glibc", w)
    cols2 = [c for c in HTTP_COLS2 if c in info.get("cols", "").split()]
    if cols2:
        w("")
        w("Both CPUs: the same server and load with servers and client on CPUs %s and %s "
          "(taskset), the same connection counts. green: two green processes sharing the "
          "port with SO_REUSEPORT, one pinned to each CPU, each with the whole pool "
          "(docs/servers.md, \"On every core\"); glibc: one process, its kernel threads on "
          "both CPUs. Resident and threads are the sums over the processes." % (
              info.get("server_cpu", "?"), info.get("client_cpu", "?")))
        w("")
        http_rows(d, conns, cols2, trials, ("green2",), "glibc2", w)
    w("")
    w("Errors are wrk's socket errors (connect, read, write, timeout) summed over the "
      "trials. Mid-run: the server's sockets other than the listener "
      "(`/proc/PID/fd`) and its listen queue (`ss`), medians. From 5000 connections the runs "
      "and warm-ups are twice as long: connections beyond the listen backlog ramp up "
      "through SYN retries. The load average includes the previous trial's own "
      "server threads when they were kernel threads. A cell that could not run says why.")
    return out


# ---- the plots

def http_points(d):
    """For server.svg: (connections, [(build, label, {n: (requests/s,
    p99 s)})]), medians of the good trials; None when http.sh did not run."""
    p = os.path.join(d, "http.info")
    if not os.path.exists(p):
        return None
    info = dict(line.rstrip("\n").partition(" ")[::2] for line in open(p))
    conns = [int(x) for x in info.get("conns", "").split()]
    trials = int(info.get("trials", "1"))
    builds = []
    for c in [c for c in HTTP_COLS if c in info.get("cols", "").split()]:
        pts = {}
        for n in conns:
            g = [r for r in (WrkRun(f) for f in (os.path.join(d, "http.%s.c%d.%d" % (c, n, i))
                                                 for i in range(1, trials + 1)) if os.path.exists(f))
                 if r.ok()]
            if g:
                p99 = [r.p99 for r in g if r.requests and r.p99 is not None]
                pts[n] = (median([r.rps for r in g]), median(p99) if p99 else None)
        builds.append((c, HTTP_HEAD[c], pts))
    return (conns, builds) if conns else None


def echo_points(d):
    """For server.svg: (connections, [(build, label, round trips/s)])."""
    p = os.path.join(d, "echo.info")
    if not os.path.exists(p):
        return None
    n = (open(p).read().split()[1:] or ["?"])[0]
    rows = [("loop", "event loop (epoll)", "loop"), ("k11", "1:1 (musl)", "k11")]
    rows += [("sep" if st == "separate" else "cop", "green, %s, %s" % (st, io), "%s.%s" % (st, io))
             for st in ("separate", "copied") for io in ("auto", "select", "poll", "epoll")]
    out = []
    for key, label, name in rows:
        vals, _ = echo_tables._rates(d, "echo." + name)
        out.append((key, label, median(vals) if vals else None))
    return n, out


def plot(raw, path, copied, fitted=None):
    depths = [256, 512, 1024, 2048, 4096, 8192, 16384, 32768]
    series = []
    for col, colour, label in (("sep", "#1f77b4", "separate stacks"),
                               ("cop", "#d62728", "copied stacks")):
        pts = []
        for d in depths:
            t = raw.t("%s.sweep.d%d" % (col, d), "yield_busy")
            if t:
                pts.append((d, t[0], t[1], t[2]))
        if pts:
            series.append((col, colour, label, pts))
    W, H = 720, 440
    L, R, Tp, B = 80, 30, 50, 60
    ys = [p[3] for s in series for p in s[3]] or [1]
    if fitted:   # the copied fit, ns = a + b per KB, over 0.5-4 KB
        ys += [fitted[0] + fitted[1] * DEPTHS[-1] / 1024.0]
    ymax = svgplot.nice_top(max(ys) * 1.05)

    def X(d):
        return L + (math.log2(d) - 8) / 7 * (W - L - R)

    def Y(v):
        return H - B - v / ymax * (H - Tp - B)

    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">' % (W, H, W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="22" font-size="15" text-anchor="middle">Copied-stack switch cost '
         'against live stack depth (yield, busy)</text>' % (W / 2)]
    # axes and grid
    for i in range(6):
        v = ymax * i / 5
        o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (L, Y(v), W - R, Y(v)))
        o.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>' % (L - 6, Y(v) + 4, num(v)))
    for d in depths:
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (X(d), Tp, X(d), H - B))
        o.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (
            X(d), H - B + 16, "%g" % (d / 1024.0)))
    o.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, H - B, W - R, H - B))
    o.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, Tp, L, H - B))
    o.append('<text x="%d" y="%d" text-anchor="middle">live stack depth (KB, log scale)</text>' % (
        (L + W - R) / 2, H - 18))
    o.append('<text x="18" y="%d" text-anchor="middle" transform="rotate(-90 18 %d)">'
             'ns per switch (median, min–max bars)</text>' % ((Tp + H - B) / 2, (Tp + H - B) / 2))
    ly = Tp + 10
    for col, colour, label, pts in series:
        o.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (
            colour, " ".join("%.1f,%.1f" % (X(d), Y(m)) for d, m, _, _ in pts)))
        for d, m, lo, hi in pts:
            o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>' % (
                X(d), Y(lo), X(d), Y(hi), colour))
            o.append('<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"/>' % (X(d), Y(m), colour))
        o.append('<rect x="%d" y="%d" width="14" height="4" fill="%s"/>' % (L + 16, ly - 4, colour))
        o.append('<text x="%d" y="%d">%s</text>' % (L + 36, ly + 2, label))
        ly += 18
    if fitted:
        a, b = fitted
        x0, x1 = DEPTHS[0], DEPTHS[-1]
        o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#d62728" '
                 'stroke-dasharray="6 4" stroke-width="1.5"/>' % (
                     X(x0), Y(a + b * x0 / 1024.0), X(x1), Y(a + b * x1 / 1024.0)))
        o.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#d62728" stroke-dasharray="6 4"/>' % (
            L + 16, ly - 2, L + 30, ly - 2))
        o.append('<text x="%d" y="%d">copied fit over 0.5–4 KB: %s + %s per KB</text>' % (
            L + 36, ly + 2, val(a), val(b)))
    if not copied:
        o.append('<text x="%d" y="%d" font-size="14" fill="#d62728" text-anchor="middle">'
                 'The probe found no copied stacks: no copied-stack points.</text>' % (
                     (L + W - R) / 2, Tp + 60))
        o.append('<text x="%d" y="%d" fill="#555" text-anchor="middle">Shown: separate stacks, '
                 'the control (the switch copies nothing, so it should be flat).</text>' % (
                     (L + W - R) / 2, Tp + 80))
    o.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(o) + "\n")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        t = http_table(sys.argv[2])
        if t is None:
            sys.stderr.write("tables.py: no http.info in %s\n" % sys.argv[2])
            return 1
        print("\n".join(t))
        return 0
    if len(sys.argv) != 4:
        sys.stderr.write("usage: tables.py RAWDIR TABLES.md PLOT.svg\n")
        return 2
    raw = Raw(sys.argv[1])
    t = Tables(raw)
    t.write(sys.argv[2])
    f = t.copied_fit("yield_busy") if t.copied else None
    plot(raw, sys.argv[3], t.copied, (f[0].value, f[1].value) if f else None)
    here = os.path.dirname(sys.argv[3]) or "."
    hp = http_points(raw.d)
    svgplot.server_svg(os.path.join(here, "server.svg"), hp, echo_points(raw.d))
    results.write(raw, t, DERIVED, os.path.dirname(sys.argv[2]) or ".", hp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
