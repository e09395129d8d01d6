#!/usr/bin/env python3
"""realtimes.py — wall and CPU time of two real programs' slow spots,
green (separate and copied stacks) against glibc.  Run by
bench/realtimes.sh, which builds the programs; see there.

    realtimes.py uv RUNS TREE-GLIBC TREE-GREEN [RUNAS...]
    realtimes.py civet RUNS WORKERS CPU PORT WWW GLIBC-BIN GREEN-BIN

uv: libuv's `uv_run_tests_a signal_multiple_loops`, run from the tree
(the suite finds its fixtures relative to the working directory),
RUNAS (a command prefix) in front of it.  Wall time from the start to
the exit; CPU time (user + system) is the process's and its waited-for
children's (the runner forks the test), from wait4.

civet: CivetWeb started with WORKERS workers on CPU (taskset), the
options of bench/http.sh; wall time from the start until a client's
GET has its answer (a connection refused is retried every 10 ms; the
listening socket may exist before the first accept), and the CPU time
the server had used by then (/proc/PID/stat, clock ticks).

The modes run in turn within each round (glibc, separate, copied), so
that the machine's load falls on all of them alike.  Prints one line
per run, then the medians and their ratios to glibc, with the load
average at the start and the end.
"""
import os
import signal
import socket
import statistics
import subprocess
import sys
import time

MODES = ("glibc", "separate", "copied")


def env_for(mode):
    env = dict(os.environ)
    env.pop("GREEN_STACKS", None)
    if mode == "copied":
        env["GREEN_STACKS"] = "copied"
    return env


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def run_uv(mode, tree, runas):
    cmd = runas + [os.path.join(tree, "rp-build", "uv_run_tests_a"),
                   "signal_multiple_loops"]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, cwd=tree, env=env_for(mode),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = status
    ok = status == 0 and b"ok 1 - signal_multiple_loops" in out
    return wall, ru.ru_utime + ru.ru_stime, ok


def cpu_of(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # utime and stime are fields 14 and 15 (1-based), 12 and 13 here
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def answered(port):
    """True once a GET on the port has its answer's status line."""
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=120)
    except OSError:
        return False
    try:
        s.sendall(b"GET /1k.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return s.recv(16).startswith(b"HTTP/1.1 200")
    except OSError:
        return False
    finally:
        s.close()


def run_civet(mode, workers, cpu, port, www, binary):
    cmd = ["taskset", "-c", cpu, binary,
           "-listening_ports", "127.0.0.1:%d" % port, "-document_root", www,
           "-num_threads", str(workers), "-enable_keep_alive", "yes",
           "-tcp_nodelay", "1", "-keep_alive_timeout_ms", "30000",
           "-listen_backlog", "4096", "-connection_queue", str(workers)]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, env=env_for(mode), stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    ok = False
    try:
        while time.monotonic() - t0 < 300 and p.poll() is None:
            if answered(port):
                ok = True
                break
            time.sleep(0.01)
        wall = time.monotonic() - t0
        cpu_s = cpu_of(p.pid) if p.poll() is None else float("nan")
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    return wall, cpu_s, ok


def main():
    what, runs = sys.argv[1], int(sys.argv[2])
    if what == "uv":
        trees = {"glibc": sys.argv[3], "separate": sys.argv[4], "copied": sys.argv[4]}
        runas = sys.argv[5:]
        one = lambda m: run_uv(m, trees[m], runas)
        title = "libuv signal_multiple_loops"
    else:
        workers, cpu, port, www = int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), sys.argv[6]
        bins = {"glibc": sys.argv[7], "separate": sys.argv[8], "copied": sys.argv[8]}
        one = lambda m: run_civet(m, workers, cpu, port, www, bins[m])
        title = "CivetWeb, %d workers, to the first answer" % workers
    print("# %s: %d runs per mode; load at the start %s" % (title, runs, load()))
    got = {m: [] for m in MODES}
    failed = {m: 0 for m in MODES}
    for r in range(runs):
        for m in MODES:
            wall, cpu_s, ok = one(m)
            print("%-8s run %d: wall %.3f s, cpu %.3f s%s"
                  % (m, r + 1, wall, cpu_s, "" if ok else "  FAILED"), flush=True)
            if ok:
                got[m].append((wall, cpu_s))
            else:
                failed[m] += 1
    print("# load at the end %s" % load())
    print("| %s | wall (median) | CPU (median) | wall ÷ glibc | CPU ÷ glibc | runs |" % title)
    print("|---|---:|---:|---:|---:|---|")
    base = None
    for m in MODES:
        if not got[m]:
            print("| %s | — | — | — | — | all %d failed |" % (m, runs))
            continue
        w = statistics.median(x[0] for x in got[m])
        c = statistics.median(x[1] for x in got[m])
        if m == "glibc":
            base = (w, c)
        ratio = lambda a, b: "%.2f" % (a / b) if b else "—"
        print("| %s | %.3f s (%.3f–%.3f) | %.3f s (%.3f–%.3f) | %s | %s | %d%s |"
              % (m, w, min(x[0] for x in got[m]), max(x[0] for x in got[m]),
                 c, min(x[1] for x in got[m]), max(x[1] for x in got[m]),
                 ratio(w, base[0]) if base else "—", ratio(c, base[1]) if base else "—",
                 len(got[m]), ", %d failed" % failed[m] if failed[m] else ""))
    return 1 if any(failed.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
