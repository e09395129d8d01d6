# green-gdb.py — gdb support for green threads (docs/debugging.md).
#
# gdb loads this file by itself for programs linked by green-cc: their
# .debug_gdb_scripts section names it (gdb/include.am).  It adds
#
#   info green-threads              every thread: id, name, state, what it
#                                   waits on, stack mode, the frame it is in
#   green-thread [N|current]        show thread N: bt, frame, up, down,
#                                   info locals, info registers then apply
#                                   to it; "current" (or 0) goes back to the
#                                   thread that is running
#   green-thread apply all|N... CMD run CMD for each thread
#   green-mutex ADDR                who holds mutex ADDR, who waits for it
#   green-print [/FMT] EXPR         print, with the `__thread` variables in
#                                   EXPR taken from the thread shown
#   $green_tls("VAR" [, N])         `__thread` variable VAR of thread N (or
#                                   of the thread shown), as an lvalue
#   green-replay when|goto N|checkpoint|checkpoints|restart K
#                                   move through a replay of green-record's
#                                   trace (docs/record.md)
#
# and sets SIGALRM (green's time-slice tick) to nostop noprint pass.
#
# Layout.  Nothing about the library's structures is written here: the
# offsets of the thread descriptor's fields, the values of the states and
# wait kinds, the saved frame of a parked thread and the addresses of the
# thread list all come from the table __green_debug that the library
# links into the program (src/core/diag/gdb_layout.c), computed by the compiler.
#
# Viewing a parked thread.  gdb knows one thread: the kernel's, whose
# registers are those of the green thread that runs.  A parked thread's
# registers are in the frame its last switch pushed on its own stack.  To
# show it, a frame unwinder (below) makes the running thread's frame 0
# unwind into that saved frame, so frame 1 and everything older belong to
# the parked thread, and a frame filter hides frame 0 from backtraces.
# For a separate-stack thread nothing in the inferior is written, so this
# works on core files too.  Run-control commands (continue, step, next,
# finish, return, ...) first go back to the running thread: they can
# only act on it.
#
# Copied stacks.  A thread with a copied stack keeps its frames in a save
# area while parked; the addresses in them are those of the shared stack,
# where the running thread's frames are now.  See copied_stack_image():
# the view writes the saved copy over the shared stack in the (live)
# inferior for as long as the thread is shown and puts the bytes it
# overwrote back afterwards, before anything runs.

import re
import time

import gdb
import gdb.unwinder

try:
    import signal as _signal
except ImportError:  # pragma: no cover
    _signal = None


# ---------------------------------------------------------------- layout

class Layout:
    """The library's table __green_debug: name -> (value, size)."""

    def __init__(self, addr):
        self.addr = addr
        self.entries = {}
        ul = gdb.lookup_type("unsigned long")
        step = ul.sizeof
        i = 0
        while True:
            base = addr + 3 * step * i
            name_ptr = _uint(base, step)
            if not name_ptr:
                break
            name = gdb.Value(name_ptr).cast(gdb.lookup_type("char").pointer()).string()
            self.entries[name] = (_uint(base + step, step), _uint(base + 2 * step, step))
            i += 1
        self.ptr_size = gdb.lookup_type("void").pointer().sizeof
        self.states = self._enum("state.", "GS_")
        self.waits = self._enum("wait.", "GW_")
        self.stack_modes = {v: k[len("stack."):] for k, (v, _) in self.entries.items()
                            if k.startswith("stack.")}
        self.frame = {k[len("frame."):]: v for k, (v, _) in self.entries.items()
                      if k.startswith("frame.")}

    def _enum(self, prefix, strip):
        out = {}
        for k, (v, _) in self.entries.items():
            if k.startswith(prefix):
                out[v] = k[len(prefix):]
        return out

    def has(self, name):
        return name in self.entries

    def value(self, name, default=None):
        e = self.entries.get(name)
        return e[0] if e else default

    def field(self, obj, name):
        """Read field NAME ("thread.id") of the object at address OBJ."""
        off, size = self.entries[name]
        return _uint(obj + off, size)

    def field_bytes(self, obj, name):
        off, size = self.entries[name]
        return bytes(gdb.selected_inferior().read_memory(obj + off, size))

    def ptr(self, addr):
        return _uint(addr, self.ptr_size)


def _uint(addr, size):
    t = {1: "unsigned char", 2: "unsigned short", 4: "unsigned int",
         8: "unsigned long long"}[size]
    return int(gdb.Value(addr).cast(gdb.lookup_type(t).pointer()).dereference())


_layout = None


def layout():
    """The table of the current program, or a gdb.GdbError saying why not."""
    global _layout
    try:
        addr = int(gdb.parse_and_eval("(unsigned long)&__green_debug"))
    except gdb.error:
        raise gdb.GdbError("green: this program has no green thread table "
                           "(not linked by green-cc, or stripped)")
    if _layout is None or _layout.addr != addr:
        _layout = Layout(addr)
    return _layout


# ---------------------------------------------------------------- threads

class Thread:
    """A snapshot of one descriptor."""

    def __init__(self, lay, addr):
        self.lay = lay
        self.addr = addr
        f = lambda n: lay.field(addr, "thread." + n)
        self.id = f("id")
        raw = lay.field_bytes(addr, "thread.name")
        self.name = raw.split(b"\0", 1)[0].decode("utf-8", "replace")
        if not self.name and addr == lay.value("addr.main"):
            pn = lay.value("addr.progname")
            p = lay.ptr(pn) if pn else 0
            if p:
                self.name = gdb.Value(p).cast(gdb.lookup_type("char").pointer()).string()
        self.state_value = f("state")
        self.state = lay.states.get(self.state_value, "state %d" % self.state_value)
        self.state = self.state[3:].lower() if self.state.startswith("GS_") else self.state
        self.wait_value = f("wait")
        self.wait = lay.waits.get(self.wait_value, "GW_%d" % self.wait_value)
        self.wait_obj = f("wait_obj")
        self.wait_aux = f("wait_aux")
        self.sp = f("sp")
        self.stack_mode = lay.stack_modes.get(f("stack_mode"), "mode %d" % f("stack_mode"))
        self.deadline = f("deadline") if f("heap_idx") else None
        cur = lay.value("addr.cur")
        self.on_cpu = self.state == "running" or bool(cur) and lay.ptr(cur) == addr

    def label(self):
        return '%d "%s"' % (self.id, self.name) if self.name else "%d" % self.id

    def running(self):
        """Are its frames the CPU's?  The running thread's; also, once every
        thread is blocked, the one whose stack the scheduler's idle loop or
        the deadlock report runs on (the last to block: addr.cur)."""
        return self.on_cpu

    def parked(self):
        return self.state in ("runnable", "blocked")


def threads():
    """Every thread of the program, by id."""
    lay = layout()
    head = lay.value("addr.all")
    if not head:
        return []
    out, seen = [], set()
    t = lay.ptr(head)
    while t and t not in seen and len(seen) < 1000000:
        seen.add(t)
        out.append(Thread(lay, t))
        t = lay.field(t, "thread.all_next")
    out.sort(key=lambda th: th.id)
    return out


def thread_at(addr):
    for t in threads():
        if t.addr == addr:
            return t
    return None


def find_thread(ident):
    for t in threads():
        if str(t.id) == ident:
            return t
    raise gdb.GdbError("green: no thread %s (info green-threads lists them)" % ident)


def _signame(s):
    if _signal is not None:
        try:
            return _signal.Signals(s).name
        except ValueError:
            pass
    return "signal %d" % s


def mutex_owner(lay, addr):
    """The descriptor address of the thread that holds the mutex at addr,
    0 if none: the lock word less its waiters bit (src/core/sync/sync.h)."""
    if not lay.has("gmutex.owner"):
        return 0
    return lay.field(addr, "gmutex.owner") & ~lay.value("gmutex.waiters_bit", 0)


def describe_wait(t):
    """What a blocked thread waits for, worded as the deadlock report does."""
    if t.state != "blocked":
        return "-"
    lay, o, kind = t.lay, t.wait_obj, t.wait
    if kind == "GW_MUTEX":
        owner = mutex_owner(lay, o)
        who = thread_at(owner) if owner else None
        s = "mutex %#x held by %s" % (o, "thread " + who.label() if who else
                                      ("nobody" if not owner else "%#x" % owner))
    elif kind == "GW_COND":
        s = "condition variable %#x" % o
        if t.wait_aux:
            s += " (mutex %#x)" % t.wait_aux
    elif kind == "GW_JOIN":
        who = thread_at(o)
        s = "join of thread %s" % (who.label() if who else "%#x" % o)
    elif kind == "GW_SLEEP":
        s = "sleep"
    elif kind == "GW_SIGNAL":
        s = "signal"
        bits = lay.field(t.addr, "thread.sigwait_set") if lay.has("thread.sigwait_set") else 0
        if bits:
            names = [_signame(i + 1) for i in range(64) if bits >> i & 1]
            s = "sigwait for {%s}" % ", ".join(names)
        elif lay.has("thread.sigwait_set"):
            s = "signal (sigsuspend or pause)"
    elif kind == "GW_CHILD" and not _on_io_queue(t) and t.deadline is not None:
        # no pidfd: polled (a retry's deadline, on no queue), and wait_obj
        # is waitpid's pid argument; a pidfd's usual wait is on no queue
        # either, but has no deadline
        pid = o - (1 << 64) if o >> 63 else o
        s = ("child process %d" % pid if pid > 0 else "any child process" if pid == -1
             else "a child in its process group" if pid == 0
             else "a child in process group %d" % -pid)
    elif kind in ("GW_FD", "GW_CHILD") and lay.has("fdkey.shift"):
        shift = lay.value("fdkey.shift")
        fd, ev = o >> shift, o & ((1 << shift) - 1)
        dirs = [d for d, n in (("read", "fdev.in"), ("write", "fdev.out"),
                               ("priority", "fdev.pri")) if lay.has(n) and ev & lay.value(n)]
        if kind == "GW_FD":
            s = "fd %d (%s)" % (fd, ", ".join(dirs) or "events %#x" % ev)
        else:
            s = "child process (pidfd %d)" % fd
    elif kind in ("GW_FD", "GW_CHILD"):
        # a library that does not say how wait_obj encodes the descriptor
        s = "%s wait (key %#x)" % ("descriptor" if kind == "GW_FD" else "child", o)
    elif kind == "GW_ADDR":
        s = "lock word %#x" % o
    elif kind == "GW_FUTEX":
        s = "futex word %#x (syscall)" % o
    elif kind == "GW_AIO":
        s = "asynchronous I/O (aio_suspend, lio_listio or aio_cancel)"
    elif kind == "GW_EXIT":
        s = "exit(), which another thread runs"
    else:
        s = "%s %#x" % (kind[3:].lower() if kind.startswith("GW_") else kind, o)
    if t.deadline is not None:
        s += ", " + describe_deadline(t.deadline)
    return s


def _on_io_queue(t):
    """Is t on the queue of threads waiting on the kernel (a keyed wait)?"""
    lay = t.lay
    if not (lay.has("thread.q") and lay.value("addr.io_q")):
        return True
    return lay.field(t.addr, "thread.q") == lay.value("addr.io_q")


def state_text(t):
    return t.state + (": " + describe_wait(t) if t.state == "blocked" else "")


def _live_native():
    """A running process on this machine (not a core file, not remote)?"""
    inf = gdb.selected_inferior()
    conn = getattr(inf, "connection", None)
    return bool(inf.pid) and conn is not None and conn.type == "native"


def _live():
    """A running process, here or behind a gdb stub (qemu-user's), whose
    memory can be written: not a core file."""
    inf = gdb.selected_inferior()
    conn = getattr(inf, "connection", None)
    return bool(inf.pid) and conn is not None and conn.type != "core"


def describe_deadline(ns):
    """A CLOCK_MONOTONIC deadline, relative to now when the process is live."""
    if _live_native():
        left = ns / 1e9 - time.clock_gettime(time.CLOCK_MONOTONIC)
        return "deadline in %.3f s" % left
    return "deadline %.3f s (CLOCK_MONOTONIC)" % (ns / 1e9)


# ---------------------------------------------------------------- copied stacks

def copied_stack_image(t):
    """(address, bytes) to lay over its stack to show copied thread t.

    A parked cold thread with a copied stack keeps its frames in a save
    area; they belong at `address` on its own stack, unmapped while it is
    cold (or, with an older library, on the one region all copied threads
    shared).  While the thread is shown the extension writes `bytes`
    there (live process only) and restores the original bytes afterwards
    (Selection.release).  src/core/diag/gdb_layout.c exports where the copy is
    (thread.copy_buf, thread.copy_len) and where it belongs
    (thread.copy_at); (None, None) for a hot thread (thread.hot), whose
    frames are in place, or the owner of an older library's region."""
    lay = t.lay
    need = ("thread.copy_buf", "thread.copy_len", "thread.copy_at")
    if not all(lay.has(n) for n in need):
        raise gdb.GdbError("green: thread %s has a copied stack, and this library does "
                           "not export where its copy is (see copied_stack_image in "
                           "green-gdb.py)" % t.label())
    if lay.has("thread.hot"):
        if lay.field(t.addr, "thread.hot"):
            # its stack is mapped, its frames in place: in a core file too,
            # where green put every cold one back before dying
            # (__green_copied_for_core)
            return None, None
    elif lay.has("addr.region_owner") and lay.ptr(lay.value("addr.region_owner")) == t.addr:
        return None, None   # its frames are still in place on the region
    if not _live():
        raise gdb.GdbError("green: a parked cold copied-stack thread can only be shown "
                           "in a live process")
    buf = lay.field(t.addr, "thread.copy_buf")
    n = lay.field(t.addr, "thread.copy_len")
    at = lay.field(t.addr, "thread.copy_at")
    return at, bytes(gdb.selected_inferior().read_memory(buf, n))


# ---------------------------------------------------------------- selection

class Selection:
    """A parked thread being shown: the registers its frame 1 starts with."""

    def __init__(self, t):
        lay = t.lay
        if not lay.frame or "sp" not in lay.frame:
            raise gdb.GdbError("green: the library exports no saved-frame layout "
                               "for this CPU")
        self.thread = t
        self.overlay = None
        self.past_main = None
        if t.stack_mode == "copied":
            at, data = copied_stack_image(t)
            if data is not None:
                inf = gdb.selected_inferior()
                self.overlay = (at, bytes(inf.read_memory(at, len(data))))
                inf.write_memory(at, data)
        self.regs = {}
        for reg, off in lay.frame.items():
            if reg != "sp":
                self.regs[reg] = lay.ptr(t.sp + off)
        self.regs[_sp_name()] = t.sp + lay.frame["sp"]
        self.frame0_sp = t.sp
        self.level, self.past_main = _claim_level()

    def release(self):
        if self.past_main is not None:
            gdb.execute("set backtrace past-main " + self.past_main, to_string=True)
            self.past_main = None
        if self.overlay:
            at, data = self.overlay
            self.overlay = None
            gdb.selected_inferior().write_memory(at, data)


def _claim_level():
    """The frame of the running thread that unwinds into the parked one.

    That is the innermost frame that is not inlined: gdb makes up an
    inlined frame (frame 0 at a breakpoint in an inlined function, at an
    -O2 assert or abort) from its caller's registers, without asking a
    Python unwinder; the caller is where the parked frames can be hung.
    If that frame is main, gdb unwinds no further unless "backtrace
    past-main" is on: it is turned on while the thread is shown (the
    frame filter still stops the parked thread's own frames at its main).
    Returns (level, the past-main setting to restore, or None)."""
    gdb.invalidate_cached_frames()
    f, level = gdb.newest_frame(), 0
    while f.type() == gdb.INLINE_FRAME and f.older() is not None:
        f, level = f.older(), level + 1
    past_main = None
    if f.name() == "main":
        text = gdb.execute("show backtrace past-main", to_string=True)
        if " off." in text:
            past_main = "off"
            gdb.execute("set backtrace past-main on", to_string=True)
    return level, past_main


def parked_frames_start():
    """The first frame of the shown parked thread, or None."""
    if _sel is None:
        return gdb.newest_frame()
    f = gdb.newest_frame()
    while f is not None and f.level() <= _sel.level:
        f = f.older()
    return f


def _sp_name():
    return "rsp" if gdb.selected_inferior().architecture().name().startswith("i386") else "sp"


_sel = None


class FrameId:
    def __init__(self, sp, pc):
        self.sp = sp
        self.pc = pc


class GreenUnwinder(gdb.unwinder.Unwinder):
    """While a parked thread is shown, frame 0 unwinds into its saved frame."""

    def __init__(self):
        super().__init__("green-threads")

    def __call__(self, pending):
        sel = _sel
        if sel is None or pending.level() != sel.level:
            return None
        pc = pending.read_register("pc")
        # frame 0's id must not be outer to frame 1's (gdb stops a
        # backtrace that goes "inward"): the parked stack pointer is below
        # every frame of the parked thread.
        info = pending.create_unwind_info(FrameId(gdb.Value(sel.frame0_sp), pc))
        for reg, v in sel.regs.items():
            info.add_saved_register(reg, gdb.Value(v).cast(pending.read_register(reg).type))
        return info


class GreenTickFrames(gdb.Parameter):
    """Whether a thread preempted by green's time-slice tick shows the tick's frames.

Off (the default), the backtrace of a thread that the tick preempted
starts at the program's frame the tick interrupted: the tick handler's
frames, the switch's, and the signal frame (<signal handler called>,
__restore_rt) are hidden.  On, they are shown, innermost first."""

    set_doc = "Set whether a preempted green thread's backtrace shows the tick's frames."
    show_doc = "Show whether a preempted green thread's backtrace shows the tick's frames."

    def __init__(self):
        super().__init__("green-tick-frames", gdb.COMMAND_STACK, gdb.PARAM_BOOLEAN)
        self.value = False

    def get_set_string(self):
        return ""

    def get_show_string(self, value):
        return "The tick's frames in a preempted green thread's backtrace are %s." % (
            "shown" if value == "on" else "hidden")


_tick_frames = None


def _library_frame(f, libdirs):
    sal = f.find_sal()
    path = sal.symtab.fullname() if sal.symtab else None
    return path is None or any(path.startswith(d) for d in libdirs)


class GreenFrameFilter:
    """While a parked thread is shown, hide frame 0 (the running thread's),
    and for a thread the tick preempted the tick's frames (GreenTickFrames)."""

    def __init__(self):
        self.name = "green-threads"
        self.priority = 100
        self.enabled = True

    def filter(self, frames):
        if _sel is None:
            return frames
        frames = self._parked(frames, _sel.level, _sel.past_main is not None)
        if _tick_frames is not None and not _tick_frames.value:
            frames = self._untick(frames)
        return frames

    @staticmethod
    def _parked(frames, level, stop_at_main):
        for f in frames:
            fr = f.inferior_frame()
            if fr.level() <= level:
                continue
            yield f
            if stop_at_main and fr.name() == "main":
                return       # past-main is on only to reach the parked frames

    @staticmethod
    def _untick(frames):
        """Drop the library's frames up to and including a signal frame
        that the parked thread's stack starts with: the tick preempted it
        there (the program's interrupted frame is next)."""
        libdirs, held = library_dirs(), []
        for f in frames:
            if held is None:
                yield f
                continue
            fr = f.inferior_frame()
            if fr.type() == gdb.SIGTRAMP_FRAME:
                held = None          # the tick's frames and the signal frame: dropped
                continue
            held.append(f)
            if not _library_frame(fr, libdirs) or len(held) > 32:
                for h in held:       # not a preemption: everything, in order
                    yield h
                held = None
        for h in held or ():
            yield h


def select(t):
    """Show thread t (a parked one), or the running thread when t is None."""
    global _sel
    if _sel is not None:
        old, _sel = _sel, None
        old.release()
    if t is not None and not t.running():
        _sel = Selection(t)
    gdb.invalidate_cached_frames()


def _source_root(symbol, tail):
    """The source directory SYMBOL was compiled in, less its path TAIL."""
    try:
        sym = gdb.lookup_static_symbol(symbol) or gdb.lookup_global_symbol(symbol)
        path = sym.symtab.fullname()
    except Exception:
        return None
    return path[:-len(tail)] if path.endswith(tail) else None


def library_dirs():
    """Where green's and musl's sources were: frames there are the library's."""
    return [d for d in (_source_root("__green_debug", "core/diag/gdb_layout.c"),
                        _source_root("__libc_start_main", "src/env/__libc_start_main.c"))
            if d]


def user_frame():
    """The innermost frame outside the library, and the library call it is
    in (not the signal frame of a preemption: preempted())."""
    libdirs = library_dirs()
    f, inner = parked_frames_start(), None
    while f is not None:
        sal = f.find_sal()
        path = sal.symtab.fullname() if sal.symtab else None
        if path and not any(path.startswith(d) for d in libdirs):
            return f, inner
        if f.type() == gdb.SIGTRAMP_FRAME:
            inner = None     # below it: the tick's frames, not the call interrupted
        elif f.name():
            inner = f
        f = f.older()
    return None, None


def preempted(f):
    """Did the tick preempt the thread shown: is there a signal frame
    (<signal handler called>, __restore_rt) among the library's frames
    below its program frame f?"""
    g = parked_frames_start()
    while g is not None and (f is None or g.level() < f.level()):
        if g.type() == gdb.SIGTRAMP_FRAME:
            return True
        g = g.older()
    return False


def frame_text(f, inner):
    if f is None:
        return "?"
    sal = f.find_sal()
    where = "%s:%d" % (sal.symtab.filename.rsplit("/", 1)[-1], sal.line) if sal.symtab else "%#x" % f.pc()
    s = "%s (%s)" % (f.name() or "??", where)
    if inner is not None and inner.name():
        s += " in %s" % inner.name()
    if _sel is not None and preempted(f):
        s += ", preempted by the tick"
    return s


class Viewing:
    """Show thread t for the duration of a with-block, then restore."""

    def __init__(self, t):
        self.t = t

    def __enter__(self):
        self.prev = _sel.thread if _sel is not None else None
        try:
            self.frame = gdb.selected_frame()
        except gdb.error:
            self.frame = None
        select(self.t)
        return self

    def __exit__(self, *exc):
        prev = thread_at(self.prev.addr) if self.prev is not None else None
        select(prev)
        if self.frame is not None:
            try:
                if self.frame.is_valid():
                    self.frame.select()
            except gdb.error:
                pass
        return False


# ---------------------------------------------------------------- thread-local variables
#
# gdb 13 cannot read a `__thread` variable of a static musl program at
# all: it asks libthread_db, which musl does not have.  So the address is
# computed here, for the thread shown: musl on x86_64 (TLS variant II)
# puts a static program's TLS block right below the TCB that the thread
# pointer addresses, and the block ends aligned (static_init_tls and
# __copy_tls in musl's src/env/__init_tls.c):
#
#   off     = memsz + ((-memsz - p_vaddr) & (p_align - 1))
#   address = tp - off + (the variable's offset in the segment)
#
# with memsz, p_vaddr and p_align from the executable's PT_TLS program
# header and tp the thread's descriptor field (thread.tp; for a program
# without a TLS segment every thread has the initial thread's).  A
# static-pie program's load bias is a multiple of the segment's alignment,
# so p_vaddr gives the same padding.

_tls_segments = {}


def _tls_segment(path):
    """(p_vaddr, p_memsz, p_align) of PATH's PT_TLS header, or None."""
    if path in _tls_segments:
        return _tls_segments[path]
    import struct
    seg = None
    with open(path, "rb") as f:
        ident = f.read(16)
        if ident[:4] != b"\x7fELF":
            raise gdb.GdbError("green: %s is not an ELF file" % path)
        end = "<" if ident[5] == 1 else ">"
        if ident[4] == 2:       # ELFCLASS64
            f.seek(0x20)
            phoff, = struct.unpack(end + "Q", f.read(8))
            f.seek(0x36)
            phentsize, phnum = struct.unpack(end + "HH", f.read(4))
            ph, fields = end + "IIQQQQQQ", lambda p: (p[3], p[6], p[7])
        else:
            f.seek(0x1c)
            phoff, = struct.unpack(end + "I", f.read(4))
            f.seek(0x2a)
            phentsize, phnum = struct.unpack(end + "HH", f.read(4))
            ph, fields = end + "IIIIIIII", lambda p: (p[2], p[5], p[7])
        size = struct.calcsize(ph)
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            p = struct.unpack(ph, f.read(size))
            if p[0] == 7:       # PT_TLS
                seg = fields(p)
                break
    _tls_segments[path] = seg
    return seg


_TLS_RE = re.compile(r"thread-local variable at offset (0x[0-9a-fA-F]+|\d+) "
                     r"in the thread-local storage for `(.*)'")


def tls_symbol(name):
    """(symbol, offset in the TLS segment, file) of the `__thread` variable
    NAME as seen from the selected frame, or None if NAME is not one."""
    try:
        sym = gdb.lookup_symbol(name)[0]
    except gdb.error:       # no frame: the program is not running
        sym = gdb.lookup_global_symbol(name) or gdb.lookup_static_symbol(name)
    if sym is None or not sym.is_variable or sym.addr_class != gdb.SYMBOL_LOC_COMPUTED:
        return None
    try:
        text = gdb.execute("info address " + name, to_string=True)
    except gdb.error:
        return None
    m = _TLS_RE.search(text)
    if not m:
        return None
    return sym, int(m.group(1), 0), m.group(2)


def _variant_ii():
    arch = gdb.selected_inferior().architecture().name()
    return arch.startswith("i386")       # i386, i386:x86-64, i386:x64-32


def _shown_thread():
    """The thread whose variables are shown: the one shown, else the running one."""
    if _sel is not None:
        return _sel.thread
    try:
        return running_thread()
    except gdb.GdbError:    # not a green program
        return None


def thread_pointer(t):
    """The thread pointer of green thread t (None: the kernel thread's)."""
    if t is not None and t.lay.has("thread.tp"):
        tp = t.lay.field(t.addr, "thread.tp")
        if tp:
            return tp
    if t is not None and not t.running():
        raise gdb.GdbError("green: this library does not export the thread pointer "
                           "of a parked thread (thread.tp)")
    try:       # before threads start, or a program not linked by green-cc
        return int(gdb.parse_and_eval("$fs_base"))
    except gdb.error:
        raise gdb.GdbError("green: the thread pointer is not readable here")


def tls_value(name, t=None):
    """The `__thread` variable NAME of green thread t (default: the one
    shown), as an lvalue of its own type."""
    found = tls_symbol(name)
    if found is None:
        raise gdb.GdbError("green: no thread-local variable \"%s\" in the current "
                           "context" % name)
    sym, off, path = found
    if not _variant_ii():
        raise gdb.GdbError("green: thread-local variables are computed for x86_64 "
                           "only (musl's TLS variant II)")
    seg = _tls_segment(path)
    if seg is None:
        raise gdb.GdbError("green: %s has no TLS segment" % path)
    vaddr, memsz, align = seg
    align = max(align, 1)
    block = memsz + ((-memsz - vaddr) & (align - 1))
    if t is None:
        t = _shown_thread()
    tp = thread_pointer(t)
    addr = tp - block + off
    return gdb.Value(addr).cast(sym.type.pointer()).dereference()


class GreenTlsFunction(gdb.Function):
    """$green_tls("VAR" [, N]): the `__thread` variable VAR of green thread N.

Without N, of the thread shown (green-thread N), else of the running
thread.  The value is an lvalue of VAR's type: $green_tls("v").field,
&$green_tls("v") and assignment work.  See also green-print."""

    def __init__(self):
        super().__init__("green_tls")

    def invoke(self, name, ident=None):
        try:
            name = name.string()
        except gdb.error:
            raise gdb.GdbError("usage: $green_tls(\"VARIABLE\" [, THREAD-ID])")
        t = None
        if ident is not None:
            t = find_thread(str(int(ident)))
            if t.state == "exited":
                raise gdb.GdbError("green: thread %s has exited" % t.label())
        return tls_value(name, t)


_IDENT_RE = re.compile(r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\$\w+|(?:\.|->|::)\s*\w+|[A-Za-z_]\w*)""")


def tls_rewrite(expr):
    """EXPR with each `__thread` variable VAR in it replaced by
    (*$_green_tls_VAR), a convenience variable pointing to the shown
    thread's copy.  (Not by $green_tls("VAR"): gdb types a function call
    as int where it does not evaluate, as in sizeof and ptype.)"""
    def sub(m):
        w = m.group(1)
        if w[0] in "\"'$.-:" or tls_symbol(w) is None:
            return w
        gdb.set_convenience_variable("_green_tls_" + w, tls_value(w).address)
        return "(*$_green_tls_%s)" % w
    return _IDENT_RE.sub(sub, expr)


class GreenPrint(gdb.Command):
    """Print an expression for the green thread shown: green-print [/FMT] EXPR.

As print, except that the `__thread` variables in EXPR are those of the
thread shown (green-thread N), else of the running thread: gdb 13 cannot
read thread-local variables of a static musl program itself.  Takes
print's formats, and its options before "--": green-print/x tls_var,
green-print &tls_var, green-print -pretty -- tls_struct."""

    def __init__(self):
        super().__init__("green-print", gdb.COMMAND_DATA, gdb.COMPLETE_EXPRESSION)
        self.cmd = "print"

    def invoke(self, arg, from_tty):
        opts, expr = "", arg.strip()
        if expr.startswith("/"):                      # green-print/x EXPR
            opts, _, expr = expr.partition(" ")
        elif expr.startswith("-") and " -- " in expr:  # green-print -pretty -- EXPR
            opts, _, expr = expr.partition(" -- ")
            opts += " --"
        try:
            gdb.execute("%s %s %s" % (self.cmd, opts, tls_rewrite(expr)), from_tty)
        except gdb.error as e:
            raise gdb.GdbError(str(e))


# ---------------------------------------------------------------- commands

class InfoGreenThreads(gdb.Command):
    """List the green threads: id, name, state, what each waits on, stack mode, frame.

The running thread is marked with *, the one shown (green-thread N) with >.
Frame is the innermost frame outside the library, and the library call it is in."""

    def __init__(self):
        super().__init__("info green-threads", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        ts = threads()
        if not ts:
            print("No green threads: this program has not started the library's scheduler.")
            return
        rows = []
        for t in ts:
            try:
                with Viewing(t):
                    f, inner = user_frame()
                    frame = frame_text(f, inner)
            except gdb.error as e:
                frame = "<%s>" % e
            mark = "*" if t.running() else (">" if _sel is not None and _sel.thread.addr == t.addr else " ")
            rows.append((mark, str(t.id), t.name, t.state, describe_wait(t), t.stack_mode, frame))
        head = (" ", "Id", "Name", "State", "Waits on", "Stack", "Frame")
        w = [max(len(r[i]) for r in rows + [head]) for i in range(6)]
        for r in [head] + rows:
            print("  ".join(r[i].ljust(w[i]) for i in range(6)) + "  " + r[6])


class GreenThread(gdb.Command):
    """Show a green thread: green-thread [N | current].

green-thread N             show thread N: bt, frame, up, down, info locals and
                           info registers then apply to it (its frames start at
                           #1; #0 stays the running thread's, hidden from bt)
green-thread current       (or 0) go back to the running thread
green-thread               say which thread is shown
green-thread apply all|N... CMD
                           run CMD for every thread, or for the ones listed

Run-control commands (continue, step, next, finish, return, ...) go back to
the running thread first: only it can run."""

    def __init__(self):
        super().__init__("green-thread", gdb.COMMAND_STACK, gdb.COMPLETE_NONE, True)

    def invoke(self, arg, from_tty):
        arg = arg.strip()
        if not arg:
            t = _sel.thread if _sel is not None else running_thread()
            print("[Showing green thread %s]" % (t.label() if t else "?"))
            return
        if arg in ("current", "0"):
            back_to_running(quiet=False)
            return
        t = find_thread(arg)
        if t.running():
            back_to_running(quiet=True)
            print("[Green thread %s is the running thread]" % t.label())
            gdb.execute("frame", from_tty)
            return
        if t.state == "exited":
            raise gdb.GdbError("green: thread %s has exited: it has no frames" % t.label())
        select(t)
        f, inner = user_frame()
        (f or parked_frames_start()).select()
        how = state_text(t)
        if preempted(f):
            how += "; preempted by the time-slice tick: bt %s its frames, set green-tick-frames %s" % (
                ("shows", "off hides them") if _tick_frames is not None and _tick_frames.value
                else ("hides", "on shows them"))
        print("[Switching to green thread %s (%s)]" % (t.label(), how))
        gdb.execute("frame", from_tty)


class GreenThreadApply(gdb.Command):
    """Run a command for green threads: green-thread apply all|N... CMD."""

    def __init__(self):
        super().__init__("green-thread apply", gdb.COMMAND_STACK, gdb.COMPLETE_COMMAND)

    def invoke(self, arg, from_tty):
        words = arg.split()
        ids = []
        while words and (words[0] == "all" or words[0].isdigit()):
            ids.append(words.pop(0))
        if not ids or not words:
            raise gdb.GdbError("usage: green-thread apply all|N... COMMAND")
        cmd = arg.split(None, len(ids))[-1]
        ts = threads() if "all" in ids else [find_thread(i) for i in ids]
        for t in ts:
            print("\nGreen thread %s (%s):" % (t.label(), state_text(t)))
            if t.state == "exited":
                continue
            try:
                with Viewing(t):
                    if not t.running():
                        f, _ = user_frame()
                        (f or parked_frames_start()).select()
                    gdb.execute(cmd, from_tty)
            except gdb.GdbError as e:   # this thread only (a copied one in a core)
                print(e)


class GreenMutex(gdb.Command):
    """Who holds a mutex and who waits for it: green-mutex EXPR.

EXPR is the mutex's address, as the deadlock report and info green-threads
print it, or an expression for it (&lock).  Prints the thread holding it
(with its recursion depth), then each thread blocked on it, the condition
waiters that will take it back when woken, by thread."""

    def __init__(self):
        super().__init__("green-mutex", gdb.COMMAND_DATA, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise gdb.GdbError("usage: green-mutex ADDRESS-OR-EXPRESSION")
        v = gdb.parse_and_eval(arg)
        code = v.type.strip_typedefs().code
        if code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
            v = v.address           # the mutex itself (a pthread_mutex_t)
        addr = int(v.cast(gdb.lookup_type("unsigned long")))
        lay = layout()
        ts = threads()
        owner = mutex_owner(lay, addr)
        who = thread_at(owner) if owner else None
        text = ("thread %s" % who.label() if who else "nobody" if not owner
                else "%#x (not a thread: is %#x a green mutex?)" % (owner, addr))
        if who and lay.has("gmutex.count"):
            depth = lay.field(addr, "gmutex.count")
            if depth:
                text += ", locked %d more times (recursive)" % depth
        print("mutex %#x: held by %s" % (addr, text))
        waiting = [t for t in ts if t.state == "blocked" and t.wait == "GW_MUTEX"
                   and t.wait_obj == addr]
        conds = [t for t in ts if t.state == "blocked" and t.wait == "GW_COND"
                 and t.wait_aux == addr]
        for t in waiting:
            print("  waiting: thread %s" % t.label())
        for t in conds:
            print("  in a condition wait on it: thread %s (condition variable %#x)"
                  % (t.label(), t.wait_obj))
        if not waiting and not conds:
            print("  no thread waits for it")


def running_thread():
    for t in threads():
        if t.running():
            return t
    return None


def back_to_running(quiet=True):
    if _sel is None:
        return
    select(None)
    if not quiet:
        t = running_thread()
        print("[Back to the running green thread %s]" % (t.label() if t else "?"))
        gdb.execute("frame")


# ---------------------------------------------------------------- events, hooks

def _on_resume(event):
    # a safety net: the hooks below normally went back already
    if _sel is not None:
        select(None)


def _on_exit(event):
    global _sel, _layout
    _sel = None
    _layout = None


RUN_CONTROL = ("continue", "next", "step", "nexti", "stepi", "finish", "until",
               "advance", "jump", "signal", "queue-signal", "return", "call",
               "run", "start", "starti", "kill", "detach")


def _install_hooks():
    for c in RUN_CONTROL:
        try:
            gdb.execute("show user hook-" + c, to_string=True)
            continue            # the user has a hook of their own: keep it
        except gdb.error:
            pass
        try:
            gdb.execute("define hook-%s\ngreen-thread-release\nend" % c, to_string=True)
        except gdb.error:
            pass


class GreenThreadRelease(gdb.Command):
    """Internal: go back to the running green thread before run control."""

    def __init__(self):
        super().__init__("green-thread-release", gdb.COMMAND_MAINTENANCE)

    def invoke(self, arg, from_tty):
        if _sel is not None:
            t = _sel.thread
            select(None)
            print("[Green thread %s is parked: back to the running thread]" % t.label())


def _setup():
    if getattr(gdb, "_green_threads_loaded", False):
        return
    gdb._green_threads_loaded = True
    InfoGreenThreads()
    GreenThread()
    GreenThreadApply()
    GreenThreadRelease()
    GreenPrint()
    GreenMutex()
    GreenTlsFunction()
    global _tick_frames
    _tick_frames = GreenTickFrames()
    gdb.unwinder.register_unwinder(None, GreenUnwinder(), replace=True)
    gdb.frame_filters["green-threads"] = GreenFrameFilter()
    gdb.events.cont.connect(_on_resume)
    gdb.events.exited.connect(_on_exit)
    gdb.events.new_objfile.connect(lambda e: _on_exit(e))
    _install_hooks()
    # the time-slice tick: neither stop nor print, and deliver it
    gdb.execute("handle SIGALRM nostop noprint pass", to_string=True)
    _linux_osabi()


def _linux_osabi():
    """A green program is a Linux program, but a static musl executable
    carries no ABI note, so gdb may take it for SVR4; then it knows no
    Linux signal frame where a signal's handler returns through a
    trampoline without unwind tables (m68k, under qemu-user too), and a
    backtrace from a handler (the tick's) stops there.  Say Linux, unless
    the user chose an OS ABI."""
    try:
        shown = gdb.execute("show osabi", to_string=True)
    except gdb.error:
        return
    current = shown.splitlines()[0] if shown else ""   # then "The default ..."
    if '"auto"' in current and '"GNU/Linux"' not in current:
        gdb.execute("set osabi GNU/Linux", to_string=True)



# ---------------------------------------------------------------- green-replay

class GreenReplay(gdb.Command):
    """Move through a replay of green-record's trace (green-replay --gdb).

green-replay when             the event (system calls replayed so far) and
                              the point (countable points so far)
green-replay goto N           run on to just before event N; to an earlier
                              event, start again from the latest checkpoint
                              made before it
green-replay checkpoint       keep a copy of the replay as it is now, or at
                              the next event if between two (a fork of its
                              one kernel thread, kept stopped by gdb)
green-replay checkpoints      list them
green-replay restart K        go back to checkpoint K (which is kept)"""

    def __init__(self):
        super().__init__("green-replay", gdb.COMMAND_RUNNING, prefix=True)


def _replay_var(name):
    if not gdb.selected_inferior().pid:
        raise gdb.GdbError("green-replay: the program is not running (run, or green-replay goto N)")
    try:
        return int(gdb.parse_and_eval(name))
    except gdb.error:
        raise gdb.GdbError("green-replay: no replay here (start the program with green-replay --gdb)")


def _when():
    return _replay_var("__green_rec_events"), _replay_var("__green_rec_points")


_last_stop = [None]
_FAULTS = ("SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL", "SIGABRT", "SIGTRAP", "SIGKILL")


def _note_stop(event):
    _last_stop[0] = event


def _continue_to_break():
    """continue, and again past the signals the replay sends itself at
    their recorded points (a tick, a timer, a child's kill): only a
    breakpoint, a fault or the end stops the move."""
    while True:
        _last_stop[0] = None
        gdb.execute("continue", to_string=True)
        e = _last_stop[0]
        if not gdb.selected_inferior().pid:
            raise gdb.GdbError("green-replay: the program ended first")
        if isinstance(e, gdb.SignalEvent) and e.stop_signal not in _FAULTS:
            continue
        return e


class GreenReplayWhen(gdb.Command):
    """The replay's event and point: green-replay when."""

    def __init__(self):
        super().__init__("green-replay when", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        ev, pt = _when()
        gdb.write("event %d, point %d\n" % (ev, pt))


# checkpoint id -> (inferior number, event, point)
_checkpoints = {}


def _fork_here():
    """Fork the selected inferior at the library's stop (green-replay goto
    stops there); gdb keeps the child, a new inferior, stopped just after
    the fork.  Returns its inferior number."""
    gdb.execute("set detach-on-fork off", to_string=True)
    gdb.execute("set follow-fork-mode parent", to_string=True)
    gdb.execute("set schedule-multiple off", to_string=True)
    before = {i.num for i in gdb.inferiors()}
    gdb.execute("set var __green_rec_fork_req = 1", to_string=True)
    gdb.execute("tbreak __green_rec_forked if r != 0", to_string=True)
    _continue_to_break()
    new = [i.num for i in gdb.inferiors() if i.num not in before]
    if not new:
        raise gdb.GdbError("green-replay: gdb did not keep the checkpoint's process")
    return new[0]


def _at_stop():
    """Stopped in the library's stop, between two events?"""
    f = gdb.selected_frame()
    while f is not None:
        if f.name() in ("__green_rec_stop", "__green_rec_forked"):
            return True
        f = f.older()
    return False


class GreenReplayCheckpoint(gdb.Command):
    """Keep a copy of the replay as it is now: green-replay checkpoint."""

    def __init__(self):
        super().__init__("green-replay checkpoint", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        ev, pt = _when()
        if not _at_stop():   # a checkpoint is made between two events
            gdb.execute("green-replay goto %d" % (ev + 1), to_string=True)
            ev, pt = _when()
        num = _fork_here()
        k = max(_checkpoints, default=0) + 1
        _checkpoints[k] = (num, ev, pt)
        gdb.write("checkpoint %d at event %d, point %d\n" % (k, ev, pt))


class GreenReplayCheckpoints(gdb.Command):
    """List the checkpoints: green-replay checkpoints."""

    def __init__(self):
        super().__init__("green-replay checkpoints", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        if not _checkpoints:
            gdb.write("no checkpoints\n")
        for k, (num, ev, pt) in sorted(_checkpoints.items()):
            gdb.write("checkpoint %d: event %d, point %d (inferior %d)\n" % (k, ev, pt, num))


def _restart(k):
    if k not in _checkpoints:
        raise gdb.GdbError("green-replay: no checkpoint %d" % k)
    num, ev, pt = _checkpoints[k]
    old = gdb.selected_inferior().num
    gdb.execute("inferior %d" % num, to_string=True)
    # the checkpoint itself stays as it is: run on in a fresh copy of it
    _checkpoints[k] = (_fork_here(), ev, pt)
    if old != num:
        gdb.execute("kill inferiors %d" % old, to_string=True)
        gdb.execute("remove-inferiors %d" % old, to_string=True)
    return ev


class GreenReplayRestart(gdb.Command):
    """Go back to checkpoint K: green-replay restart K."""

    def __init__(self):
        super().__init__("green-replay restart", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        try:
            k = int(arg)
        except ValueError:
            raise gdb.GdbError("usage: green-replay restart K")
        ev = _restart(k)
        gdb.write("back at checkpoint %d: event %d\n" % (k, ev))


class GreenReplayGoto(gdb.Command):
    """Run to just before event N: green-replay goto N.

The replay stops in the library's handler of the system call that is
event N, before it is answered; `bt` shows the program's call.  An event
already passed is reached again from the latest checkpoint before it."""

    def __init__(self):
        super().__init__("green-replay goto", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        try:
            n = int(arg)
        except ValueError:
            raise gdb.GdbError("usage: green-replay goto N")
        if not gdb.selected_inferior().pid:   # not started: from the first instruction
            gdb.execute("starti", to_string=True)
        ev, _ = _when()
        if n < ev:
            earlier = [k for k, (_, e, _) in _checkpoints.items() if e <= n]
            if not earlier:
                raise gdb.GdbError("green-replay: event %d is behind us and no checkpoint is "
                                   "before it (green-replay checkpoint)" % n)
            ev = _restart(max(earlier, key=lambda k: _checkpoints[k][1]))
        if n == ev:
            gdb.write("at event %d\n" % n)
            return
        gdb.execute("set var __green_rec_stop_at = %d" % n, to_string=True)
        gdb.execute("tbreak __green_rec_stop", to_string=True)
        e = _continue_to_break()
        gdb.execute("set var __green_rec_stop_at = 0", to_string=True)
        if isinstance(e, gdb.SignalEvent):
            gdb.write("stopped by %s before event %d\n" % (e.stop_signal, n))
        ev, pt = _when()
        gdb.write("before event %d (point %d)\n" % (ev, pt))


gdb.events.stop.connect(_note_stop)
GreenReplay()
GreenReplayWhen()
GreenReplayCheckpoint()
GreenReplayCheckpoints()
GreenReplayRestart()
GreenReplayGoto()

_setup()
