"""results.py -- the run's figures as data: results.csv and results.json
beside tables.md (bench/tables.py), for plotting elsewhere and for
bench/compare.py.  The format is in bench/README.md ("Output files").

The machine (bench/run.sh's info file: CPU, kernel, compilers, load,
date, settings) is the JSON's "machine" object, and the CSV's first rows,
run "machine", the key in metric and its text in value.  Then one record
per figure:

  run      the raw file it comes from (sep.micro, cop.micro.d1024, proc ...)
  column   sep, cop, k11, pth, glibc, or "" (a figure of no column)
  metric   the metric key (`bench-green list`), a derived key, or the
           workload's name as the raw file gives it
  depth    live stack bytes under the loop (copied-stack runs), or ""
  value    the median (a derived figure: the median of its per-round values)
  min, max the extremes over the trials ("" for a derived figure)
  res      a derived figure's resolution ("" for a timing)
  unit     ns (per operation), rps (requests/s), round_trips/s, s, bytes,
           us and ms (wake-up latency, work stealing), count
  trials   how many trials or rounds
  flag     "" | noisy (spread > value) | below_resolution
"""
import csv
import json
import os

import spin_tables
import stats

FIELDS = ["run", "column", "metric", "depth", "value", "min", "max", "res", "unit", "trials", "flag"]
COLUMNS = ("sep", "cop", "k11", "pth", "glibc")


def _column(run):
    first = run.split(".")[0]
    return first if first in COLUMNS else ""


def _depth(run):
    for part in run.split("."):
        if part.startswith("d") and part[1:].isdigit():
            return int(part[1:])
    return ""


def records(raw, tables, derived, http_points=None):
    """Every timing of every raw file, then the derived figures of each
    column, the copied-stack fits, the TLS extra and the process switch,
    then the HTTP medians (http_points: tables.http_points' answer)."""
    out = []
    for name in sorted(os.listdir(raw.d)):
        path = os.path.join(raw.d, name)
        if not os.path.isfile(path) or name.endswith(".err"):
            continue
        r = raw.run(name)
        for metric, ts in sorted(r.Tall.items()):
            for t in ts:
                out.append(dict(run=name, column=_column(name), metric=metric, depth=_depth(name),
                                value=t[0], min=t[1], max=t[2], res="", unit="ns", trials=t[4],
                                flag="noisy" if stats.noisy(t[0], t[1], t[2]) else ""))

    def diff(run, column, metric, d, depth=""):
        if d is None:
            return
        out.append(dict(run=run, column=column, metric=metric, depth=depth, value=d.value,
                        min="", max="", res=d.res, unit="ns", trials=len(d.samples),
                        flag="" if d.shown else "below_resolution"))

    for c in ("sep", "cop", "k11", "pth"):
        for key, terms in derived:
            diff(c + ".micro", c, key, tables.derived(c, terms))
    if tables.copied:
        for m in ("yield_busy", "mutex_contention", "cond_signal_out", "cond_signal_in",
                  "cond_signal_out_timed", "cond_signal_in_timed"):
            f = tables.copied_fit(m)
            if f:
                diff("cop.micro.d*", "cop", m + ".fixed", f[0])
                diff("cop.micro.d*", "cop", m + ".per_kb", f[1])
    for c in ("sep", "cop"):
        diff("tls.%s.*" % c, c, "tls_extra_per_switch", tables.tls_extra(c))
    ps = tables.procswitch()
    if ps:
        diff("proc", "", "procswitch", ps[3])
    out += spin_tables.records(raw.d)   # wake-up latency and work stealing
    if http_points:
        conns, builds = http_points
        for build, _, pts in builds:
            for n, (rps, p99) in sorted(pts.items()):
                out.append(dict(run="http.%s.c%d" % (build, n), column=build, metric="http_rps",
                                depth="", value=rps, min="", max="", res="", unit="rps",
                                trials="", flag=""))
                if p99 is not None:
                    out.append(dict(run="http.%s.c%d" % (build, n), column=build,
                                    metric="http_p99", depth="", value=p99, min="", max="",
                                    res="", unit="s", trials="", flag=""))
    return out


def write(raw, tables, derived, dirname, http_points=None):
    """results.csv and results.json in dirname; returns their paths.
    derived: [(key, [(coef, metric)])], the derived rows."""
    recs = records(raw, tables, derived, http_points)
    machine = dict(raw.info)
    jp = os.path.join(dirname, "results.json")
    with open(jp, "w") as f:
        json.dump({"format": "green-bench 1", "machine": machine, "results": recs}, f, indent=1)
        f.write("\n")
    cp = os.path.join(dirname, "results.csv")
    with open(cp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        # the machine first: run "machine", the key in metric, its text in value
        for k, v in machine.items():
            w.writerow(dict(dict.fromkeys(FIELDS, ""), run="machine", metric=k, value=v))
        for r in recs:
            w.writerow(r)
    return cp, jp


def load(path):
    """A run's results: a directory holding results.json, or the file."""
    if os.path.isdir(path):
        path = os.path.join(path, "results.json")
    with open(path) as f:
        return json.load(f)
