#!/usr/bin/env python3
"""compare.py -- two bench runs side by side, with ratios.

    bench/compare.py [--runs RUNSDIR] [RUN_A RUN_B]
    bench/run.sh BUILDDIR --compare [RUN_A RUN_B]

A run is a directory that bench/run.sh wrote (it holds results.json), the
results.json itself, or the name of a directory in RUNSDIR
(BUILDDIR/bench/runs).  Without RUN_A and RUN_B, the two newest runs in
RUNSDIR are compared, older first.  Every figure both runs have is
printed with B ÷ A; a figure one run lacks is listed once, after them.
A figure below its resolution or marked noisy in either run gets no
ratio: its ratio would be noise.  The machine, date and load of both
runs head the table, since a ratio of two runs holds only as far as
their loads were alike.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results  # noqa: E402  (bench/results.py)


def key(r):
    return (r["run"], r["column"], r["metric"], str(r["depth"]))


def keyed(recs):
    """{(key, occurrence): record}: a file that several runs append to
    (TLS rounds, seeded schedules) has one record per run."""
    seen, out = {}, {}
    for r in recs:
        k = key(r)
        seen[k] = seen.get(k, 0) + 1
        out[k + (seen[k],)] = r
    return out


def fmt(r):
    v = r["value"]
    if not isinstance(v, (int, float)):
        return str(v)
    unit = r.get("unit", "")
    if r.get("flag") == "below_resolution":
        return "< %.3g %s" % (max(v, 0) + float(r["res"] or 0), unit)
    s = "%.4g %s" % (v, unit)
    if r.get("flag") == "noisy":
        s += " (noisy)"
    return s


def resolve(name, runs):
    if os.path.exists(name):
        return name
    if runs and os.path.exists(os.path.join(runs, name)):
        return os.path.join(runs, name)
    sys.stderr.write("compare.py: no run '%s'%s\n" % (name, " in " + runs if runs else ""))
    sys.exit(2)


def newest_two(runs):
    if not runs or not os.path.isdir(runs):
        sys.stderr.write("compare.py: no runs directory (give RUN_A RUN_B)\n")
        sys.exit(2)
    done = sorted(d for d in os.listdir(runs)
                  if os.path.exists(os.path.join(runs, d, "results.json")))
    if len(done) < 2:
        sys.stderr.write("compare.py: %s holds %d finished run%s; two are needed\n" %
                         (runs, len(done), "" if len(done) == 1 else "s"))
        sys.exit(2)
    return [os.path.join(runs, d) for d in done[-2:]]


def main(argv):
    runs = None
    if len(argv) >= 2 and argv[0] == "--runs":
        runs, argv = argv[1], argv[2:]
    if len(argv) == 0:
        a, b = newest_two(runs)
    elif len(argv) == 2:
        a, b = (resolve(x, runs) for x in argv)
    else:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    A, B = results.load(a), results.load(b)
    out = sys.stdout.write
    out("# bench runs compared: B ÷ A\n\n")
    for tag, path, d in (("A", a, A), ("B", b, B)):
        m = d.get("machine", {})
        out("- %s: %s — %s, %s; load %s at the start, %s at the end; %s s%s\n" % (
            tag, os.path.basename(os.path.normpath(path)), m.get("date", "?"), m.get("cpu", "?"),
            m.get("load_start", "?"), m.get("load_end", "?"), m.get("seconds", "?"),
            " (--quick)" if m.get("quick") == "yes" else ""))
    out("\n| run | column | metric | depth | A | B | B ÷ A |\n|---|---|---|---:|---:|---:|---:|\n")
    ak, bk = keyed(A["results"]), keyed(B["results"])
    only = []
    for k, r in ak.items():
        if k not in bk:
            only.append(("A", r))
            continue
        s = bk[k]
        ratio = "—"
        plain = all(x.get("flag", "") == "" for x in (r, s))
        if plain and isinstance(r["value"], (int, float)) and isinstance(s["value"], (int, float)) \
                and r["value"] > 0:
            ratio = "%.2f" % (s["value"] / r["value"])
        out("| %s | %s | %s | %s | %s | %s | %s |\n" % (
            r["run"], r["column"], r["metric"], r["depth"], fmt(r), fmt(s), ratio))
    only += [("B", r) for k, r in bk.items() if k not in ak]
    if only:
        out("\nIn one run only:\n\n")
        for tag, r in only:
            out("- %s: %s %s %s %s\n" % (tag, r["run"], r["column"], r["metric"], fmt(r)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
