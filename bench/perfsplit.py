#!/usr/bin/env python3
"""perfsplit.py -- where a server's CPU time goes, by category.

    perf script -F ip,sym,dso -i perf.data | perfsplit.py APP.syms REQUESTS

Reads `perf script` output of a `perf record -e cpu-clock -g` profile
(stdin) and sorts every sample into one category:

  kernel, by the system call it is in (the __x64_sys_* frame of its
  chain): "kernel: readiness (poll, select)" for ppoll/pselect6/poll/
  select/epoll_wait, "kernel: ticks and signals" for setitimer,
  rt_sigprocmask, rt_sigreturn and the like, "kernel: scheduler" for
  futex and sched_yield and for samples in the kernel's own context
  switch, "kernel: the server's I/O" for any other call, and
  "kernel: network softirq, interrupts" for samples outside any call;

  user space, by the leaf symbol: green's multiplexer and I/O path
  (src/sysio/poll.c, io.c, the __syscall_cp stub), green's switches and
  scheduler (switch, run queue, timers, ticks, waits), locks and
  condition variables, malloc (musl's mallocng or glibc's malloc), the
  application (the symbols listed in APP.syms, one per line: `nm` of the
  server's own objects), and "libc: the rest" for every other symbol.

Prints each category's share and, given REQUESTS (requests answered
during the profile), its CPU time per request at the sampling period
(cpu-clock at perf's default 4000 Hz: 250 us a sample; PERIOD_US in the
environment overrides).
"""
import os
import re
import sys

READY = {"ppoll", "pselect6", "poll", "select", "epoll_wait", "epoll_pwait", "epoll_pwait2"}
TICKS = {"setitimer", "rt_sigprocmask", "rt_sigreturn", "rt_sigaction", "timer_settime",
         "getitimer", "sigaltstack", "kill", "tgkill"}
SCHED = {"futex", "sched_yield", "futex_waitv"}

MUX = re.compile(r"^(mux_round|__green_poll\w*|select_\w+|poll_\w+|idle_wait|fd_ready|park_\w+|"
                 r"do_io|attempt|io_call|io_iov|io_buf|advance|__syscall_cp\w*|__green_sys\w*|"
                 r"set_waited|\w*_deadline|__green_fd\w*|__green_io\w*|poll|ppoll|select|pselect|"
                 r"__green_kind\w*|fdkind\w*|sc_\w+)$")
SWITCH = re.compile(r"^(__green_switch\w*|green_switch\w*|pick_next|next_or_idle|idle_until_runnable|__green_block|"
                    r"__green_wait|__green_yield|__green_ready|__green_wake\w*|runq_\w+|__green_runq\w*|"
                    r"__green_timer\w*|__green_tick\w*|tick|__green_preempt\w*|__green_sig\w*|"
                    r"__gq_\w+|__green_now|__green_real_now|__green_copied\w*|copy_\w+|"
                    r"__green_cancel\w*|green_sig\w*|__green_explore\w*|thread_start|__green_cpu\w*)$")
LOCKS = re.compile(r"^(__?pthread_mutex\w*|pthread_cond\w*|__pthread_cond\w*|__green_mutex\w*|"
                   r"__green_cond\w*|__lock|__unlock|__lockfile|__unlockfile|__green_futex\w*|"
                   r"pthread_rwlock\w*|__timedwait\w*|__wait|__wake|pthread_spin\w*|"
                   r"__GI___pthread_mutex\w*|___pthread_mutex\w*|___pthread_cond\w*|"
                   r"__pthread_mutex\w*|lll_\w+|__lll_\w+)$")
MALLOC = re.compile(r"^(malloc|free|calloc|realloc|__libc_malloc\w*|__libc_free|__libc_calloc|"
                    r"__libc_realloc|alloc_slot|alloc_group|try_avail|enframe|get_meta|"
                    r"nontrivial_free|__malloc_\w+|get_stride|size_to_class|queue|dequeue|"
                    r"activate_group|free_group|okay_to_free|__expand_heap|_int_\w+|tcache_\w+|"
                    r"malloc_consolidate|cfree|unlink_chunk|__GI___libc_\w+|sysmalloc|"
                    r"malloc_\w+|__mmap|__munmap|__madvise|mmap|munmap|madvise|brk|__brk|"
                    r"_dl_\w*alloc\w*)$")


def classify(chain, app):
    """chain: [(sym, dso)] leaf first."""
    sym, dso = chain[0]
    if dso.startswith("[kernel"):
        sc = None
        for s, d in chain:
            m = re.match(r"^__(?:x64|se|do)_sys_(\w+)$", s)
            if m:
                sc = m.group(1)
                break
        if sc is None:
            if any(s in ("__schedule", "finish_task_switch.isra.0", "schedule") for s, _ in chain):
                return "kernel: scheduler"
            return "kernel: network softirq, interrupts"
        if sc in READY:
            return "kernel: readiness (poll, select)"
        if sc in TICKS:
            return "kernel: ticks and signals"
        if sc in SCHED:
            return "kernel: scheduler"
        return "kernel: the server's I/O"
    base = re.sub(r"@.*|\.(isra|part|constprop|cold)\.?\d*.*$", "", sym)
    if base in app:
        return "application"
    if MUX.match(base):
        return "green: multiplexer and I/O path"
    if SWITCH.match(base):
        return "green: switches, scheduler, timers"
    if LOCKS.match(base):
        return "locks, condition variables"
    if MALLOC.match(base):
        return "malloc"
    return "libc: the rest"


def samples(f):
    chain = []
    for line in f:
        line = line.rstrip("\n")
        if not line.strip():
            if chain:
                yield chain
            chain = []
            continue
        m = re.match(r"^\s+[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$", line)
        if m:
            chain.append((m.group(1), m.group(2)))
    if chain:
        yield chain


def main():
    if len(sys.argv) < 2:
        sys.stderr.write("usage: perf script -F ip,sym,dso | perfsplit.py APP.syms [REQUESTS]\n")
        return 2
    app = set(w.strip() for w in open(sys.argv[1]) if w.strip())
    reqs = float(sys.argv[2]) if len(sys.argv) > 2 else None
    period = float(os.environ.get("PERIOD_US", "250"))
    count = {}
    n = 0
    for chain in samples(sys.stdin):
        c = classify(chain, app)
        count[c] = count.get(c, 0) + 1
        n += 1
    if not n:
        sys.stderr.write("perfsplit.py: no samples\n")
        return 1
    print("| category | share | µs per request |")
    print("|---|---:|---:|")
    for c, k in sorted(count.items(), key=lambda x: -x[1]):
        per = "%.1f" % (k * period / reqs) if reqs else "—"
        print("| %s | %.1f %% | %s |" % (c, 100.0 * k / n, per))
    tot = "%.1f" % (n * period / reqs) if reqs else "—"
    print("| all (%d samples) | 100 %% | %s |" % (n, tot))
    return 0


if __name__ == "__main__":
    sys.exit(main())
