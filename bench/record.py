#!/usr/bin/env python3
"""record.py — what green-record costs (docs/record.md): CPU time of a busy
server and of a CPU loop under green-record against plain green, and the
trace's bytes per request and per second; the server also under
green-record --last=N (a checkpoint every N seconds, the trace of the last
N to 2N seconds).

    bench/record.py BUILDDIR [--secs S] [--conns C] [--rounds R] [--last N]

The server is CivetWeb (Debian's source package, fetched into BUILDDIR/src
by tests/stress/server.sh or bench/http.sh) serving a 1 KiB file to wrk
over keep-alive connections; its CPU time is read from /proc at the end
of the load, so it is the CPU per request that is compared, whatever the
load of the machine.  The CPU loop is bench/explore.c's (`cpu`), one
thread computing beside an idle one.  Prints the load average with the
figures; rounds alternate plain and recorded runs, and the median is kept.
"""
import argparse
import os
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HZ = os.sysconf("SC_CLK_TCK")


def cpu_of(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ


def wait_port(port, proc, limit=10.0):
    t = time.time()
    while time.time() - t < limit:
        if proc.poll() is not None:
            return False
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return True
        except OSError:
            time.sleep(0.02)
    return False


def server_run(b, exe, www, port, secs, conns, record, tmp, last=None):
    trace = os.path.join(tmp, "server.trace")
    cmd = [exe, "-listening_ports", "127.0.0.1:%d" % port, "-document_root", www,
           "-num_threads", "16", "-enable_keep_alive", "yes", "-tcp_nodelay", "1"]
    if record:
        ring = ["--last=%d" % last] if last else []
        cmd = [os.path.join(b, "bin/green-record"), "-o", trace] + ring + ["--"] + cmd
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if not wait_port(port, p):
            sys.exit("record.py: the server did not start")
        c0 = cpu_of(p.pid)
        w = subprocess.run(["wrk", "-t1", "-c%d" % conns, "-d%ds" % secs,
                            "http://127.0.0.1:%d/1k.html" % port],
                           capture_output=True, text=True)
        c1 = cpu_of(p.pid)
    finally:
        p.terminate()
        p.wait()
    m = re.search(r"(\d+) requests in", w.stdout)
    reqs = int(m.group(1)) if m else 0
    size = os.path.getsize(trace) if record and os.path.exists(trace) else 0
    return reqs, c1 - c0, size


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def loop_run(b, exe, n, record, tmp):
    cmd = [exe, "cpu", str(n)]
    if record:
        cmd = [os.path.join(b, "bin/green-record"), "-o", os.path.join(tmp, "loop.trace"), "--"] + cmd
    c0 = children_cpu()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return children_cpu() - c0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("builddir")
    ap.add_argument("--secs", type=int, default=5)
    ap.add_argument("--conns", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--port", type=int, default=18098)
    ap.add_argument("--last", type=int, default=1, help="the ring's window, seconds")
    a = ap.parse_args()
    b = os.path.abspath(a.builddir)
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cw = os.path.join(b, "src/civetweb-1.15+dfsg")
    if not os.path.isdir(cw) or not shutil.which("wrk"):
        sys.exit("record.py: needs %s (tests/stress/server.sh fetches it) and wrk" % cw)
    tmp = tempfile.mkdtemp(prefix="green-record-bench-")
    gcc = os.path.join(b, "bin/green-cc")
    server = os.path.join(tmp, "civetweb-green")
    subprocess.run([gcc, "-O2", "-DNDEBUG", "-DNO_SSL", "-I" + cw + "/include", "-o", server,
                    cw + "/src/civetweb.c", cw + "/src/main.c", "-lpthread", "-ldl"],
                   check=True, stderr=subprocess.DEVNULL)
    loop = os.path.join(tmp, "bench-explore")
    subprocess.run([gcc, "-O2", "-o", loop, os.path.join(src, "bench/explore.c")], check=True)
    www = os.path.join(tmp, "www")
    os.mkdir(www)
    with open(os.path.join(www, "1k.html"), "w") as f:
        f.write("x" * 1024)

    print("green-record's cost; load average %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    rows = {False: [], True: [], "ring": []}
    for _ in range(a.rounds):
        for rec in (False, True, "ring"):
            rows[rec].append(server_run(b, server, www, a.port, a.secs, a.conns, bool(rec), tmp,
                                        a.last if rec == "ring" else None))
    def per_req(r):
        return [c / q * 1e6 for q, c, _ in r if q]
    plain = statistics.median(per_req(rows[False]))
    recd = statistics.median(per_req(rows[True]))
    rps = [q / a.secs for q, _, _ in rows[True]]
    bpr = statistics.median([s / q for q, _, s in rows[True] if q])
    print("server (CivetWeb, 1 KiB, %d connections, %d s, median of %d):" % (a.conns, a.secs, a.rounds))
    print("  plain     %6.1f us CPU/request  %8.0f requests/s" % (plain, statistics.median([q / a.secs for q, _, _ in rows[False]])))
    print("  recorded  %6.1f us CPU/request  %8.0f requests/s  (%.2fx CPU)" % (recd, statistics.median(rps), recd / plain))
    print("  trace     %6.0f bytes/request   %8.0f KB per second of load" % (bpr, bpr * statistics.median(rps) / 1000))
    ring = statistics.median(per_req(rows["ring"]))
    print("  --last=%d  %6.1f us CPU/request  %8.0f requests/s  (%.2fx CPU), trace %.0f KB for %d s "
          "(recorded: %.0f KB)" % (a.last, ring, statistics.median([q / a.secs for q, _, _ in rows["ring"]]),
                                  ring / plain, statistics.median([s for _, _, s in rows["ring"]]) / 1000,
                                  a.secs, statistics.median([s for _, _, s in rows[True]]) / 1000))
    n = 20000000
    lp = statistics.median([loop_run(b, loop, n, False, tmp) for _ in range(a.rounds)])
    lr = statistics.median([loop_run(b, loop, n, True, tmp) for _ in range(a.rounds)])
    print("CPU loop (bench/explore.c cpu %d):" % n)
    print("  plain %.3f s CPU, recorded %.3f s CPU (%.2fx)" % (lp, lr, lr / lp))
    print("load average %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
