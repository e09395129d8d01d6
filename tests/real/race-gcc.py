#!/usr/bin/env python3
"""race-gcc.py -- GCC's own ThreadSanitizer tests against green-cc --race.

    race-gcc.py BUILDDIR TESTSUITE SCRATCH [NAME-GLOB...]

TESTSUITE is gcc/testsuite of the gcc-12 source (its c-c++-common/tsan,
gcc.dg/tsan and g++.dg/tsan are used, unmodified).  Each test whose action
is `run' is built and run the way DejaGnu's gcc-dg-runtest does it in those
directories' tsan.exp: the C tests (gcc.dg/tsan and c-c++-common/tsan) with
green-cc, the C++ ones (g++.dg/tsan and c-c++-common/tsan again) with
green-c++, each at -O0 and at -O2 (the torture options), with --race -g
in place of tsan-dg.exp's -fsanitize=thread -g, and the test's dg-options,
dg-additional-options and dg-additional-sources; its
dg-set-target-env-var set; its output matched against the concatenation
of its dg-output patterns (Tcl regular expressions, `.' matching newlines)
once its dg-prune-output patterns are removed.  Directives are found as
DejaGnu's dg.exp finds them, and a target selector that names no x86_64
Linux target drops its directive.  dg-final (a scan of gcc's dumps, not of
the run) is not checked.

A test that dg-shouldfail must exit with status 66 (a report), any other
with 0, and with no ThreadSanitizer warning in its output.  Each line
printed is PASS: or FAIL:, then the counts by what the test expects (a
data race, a use after free, a thread leak, nothing).  Exit status 0 when
every test passed.
"""
import concurrent.futures
import fnmatch
import os
import re
import subprocess
import sys

TORTURE = ["-O0", "-O2"]
TARGET = "x86_64-pc-linux-gnu"


def tcl_words(s):
    """Split a Tcl list (the directive's arguments) into words, with
    backslash substitution inside double quotes and bare words."""
    words, i, n = [], 0, len(s)
    subst = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
    while i < n:
        while i < n and s[i] in " \t\n":
            i += 1
        if i >= n:
            break
        if s[i] == "{":
            depth, j = 1, i + 1
            while j < n and depth:
                if s[j] == "\\":
                    j += 1
                elif s[j] == "{":
                    depth += 1
                elif s[j] == "}":
                    depth -= 1
                j += 1
            words.append(s[i + 1:j - 1])
            i = j
            continue
        quoted = s[i] == '"'
        if quoted:
            i += 1
        w = []
        while i < n and (s[i] != '"' if quoted else s[i] not in " \t\n"):
            c = s[i]
            if c == "\\" and i + 1 < n:
                d = s[i + 1]
                w.append(subst.get(d, d))
                i += 2
                continue
            w.append(c)
            i += 1
        if quoted:
            i += 1
        words.append("".join(w))
    return words


def selected(selector):
    """Does a `{ target ... }' or `{ xfail ... }' selector take this target?"""
    words = tcl_words(selector)
    if not words:
        return True
    kind, rest = words[0], " ".join(words[1:])
    if kind not in ("target", "xfail"):
        return True
    # an expression: it takes this target if any glob in it matches
    globs = re.findall(r"[A-Za-z0-9_*?.-]+-[A-Za-z0-9_*?.-]+-[A-Za-z0-9_*?.-]+", rest)
    ok = any(fnmatch.fnmatch(TARGET, g) or fnmatch.fnmatch("x86_64-linux-gnu", g) for g in globs)
    if "pthread" in rest.split() and not globs:
        ok = True
    return ok if kind == "target" else True


def directives(path):
    """DejaGnu's dg-get-options: lines with { dg-NAME ARGS } (whitespace
    before the closing brace)."""
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r"\{[ \t]+(dg-[-a-z]+)[ \t]+(.*)[ \t]+\}[^}]*$", line)
            if m:
                out.append((m.group(1), m.group(2)))
    return out


class Test:
    def __init__(self, path, lang):
        self.path, self.lang = path, lang
        self.action = "run"
        self.options = None
        self.extra, self.sources, self.env = [], [], {}
        self.shouldfail = False
        self.output, self.prune = "", []
        for name, args in directives(path):
            w = tcl_words(args)
            if name == "dg-do":
                if w and (len(w) < 2 or selected(w[1])):
                    self.action = w[0]
            elif name == "dg-options":
                if len(w) < 2 or selected(w[1]):
                    self.options = w[0].split() if w else []
            elif name == "dg-additional-options":
                if w and (len(w) < 2 or selected(w[1])):
                    self.extra += w[0].split()
            elif name == "dg-additional-sources":
                if w:
                    self.sources += w[0].split()
            elif name == "dg-set-target-env-var":
                if len(w) >= 2:
                    self.env[w[0]] = w[1]
            elif name == "dg-shouldfail":
                if len(w) < 2 or selected(w[1]):
                    self.shouldfail = True
            elif name == "dg-output":
                if w and (len(w) < 2 or selected(w[1])):
                    self.output += w[0]
            elif name == "dg-prune-output":
                if w:
                    self.prune.append(w[0])

    def expects(self):
        if not self.shouldfail:
            return "nothing"
        if "heap-use-after-free" in self.output:
            return "use after free"
        if "thread leak" in self.output:
            return "thread leak"
        return "data race"


def tcl_re(pattern):
    """A Tcl ARE as Python sees it: `.' matches newline in both; Tcl's
    \\m and \\M (word start and end) become \\b."""
    return re.compile(pattern.replace(r"\m", r"\b").replace(r"\M", r"\b"), re.S)


def run_one(build, t, opt, scratch):
    base = os.path.basename(t.path)
    tag = "%s/%s (%s, %s)" % (os.path.basename(os.path.dirname(os.path.dirname(t.path))),
                              base, "C++" if t.lang == "c++" else "C", opt)
    tag = "/".join(t.path.split("/")[-3:]) + tag[tag.index(" "):]
    work = os.path.join(scratch, "%s-%s%s" % (base, t.lang, opt))
    os.makedirs(work, exist_ok=True)
    exe = os.path.join(work, "a.out")
    cc = os.path.join(build, "bin", "green-c++" if t.lang == "c++" else "green-cc")
    srcdir = os.path.dirname(t.path)
    cmd = [cc, "--race", "-g", opt]   # tsan-dg.exp's TEST_ALWAYS_FLAGS: -fsanitize=thread -g
    cmd += t.options if t.options is not None else []
    cmd += t.extra
    # (green-c++ compiles a .c file as C++, as g++ does)
    cmd += [t.path] + [os.path.join(srcdir, s) for s in t.sources] + ["-o", exe]
    r = subprocess.run(cmd, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=300)
    if r.returncode:
        return tag, t, False, "does not build:\n" + " ".join(cmd) + "\n" + r.stdout.decode(errors="replace")[-3000:]
    env = dict(os.environ)
    env.update(t.env)
    try:
        r = subprocess.run([exe], cwd=work, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=120)
        out, st = r.stdout.decode(errors="replace"), r.returncode
    except subprocess.TimeoutExpired as e:
        return tag, t, False, "timed out after 120 s:\n" + (e.stdout or b"").decode(errors="replace")[-3000:]
    for p in t.prune:
        out = tcl_re(p).sub("", out)
    why = []
    if t.shouldfail and st != 66:
        why.append("exit status %d, want 66 (a report)" % st)
    if not t.shouldfail:
        if st != 0:
            why.append("exit status %d, want 0" % st)
        if "WARNING: ThreadSanitizer" in out:
            why.append("a report where the test expects none")
    if t.output and not tcl_re(t.output).search(out):
        why.append("output does not match its dg-output patterns")
    if why:
        return tag, t, False, "; ".join(why) + "\n" + out[-4000:]
    return tag, t, True, ""


def main():
    build, suite, scratch = sys.argv[1:4]
    only = sys.argv[4:]
    tests = []
    common = sorted(os.listdir(os.path.join(suite, "c-c++-common/tsan")))
    for lang, dirs in (("c", ["gcc.dg/tsan", "c-c++-common/tsan"]),
                       ("c++", ["g++.dg/tsan", "c-c++-common/tsan"])):
        for d in dirs:
            ext = (".C",) if d.startswith("g++") else (".c",)
            names = common if d.startswith("c-c++") else sorted(os.listdir(os.path.join(suite, d)))
            for n in names:
                if not n.endswith(ext):
                    continue
                t = Test(os.path.join(suite, d, n), lang)
                if t.action != "run":
                    continue
                if only and not any(fnmatch.fnmatch(n, g) for g in only):
                    continue
                tests.append(t)
    jobs = [(t, o) for t in tests for o in TORTURE]
    counts = {}
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=int(os.environ.get("RACE_GCC_JOBS", "2"))) as ex:
        futs = [ex.submit(run_one, build, t, o, scratch) for t, o in jobs]
        for f in futs:
            tag, t, ok, detail = f.result()
            k = t.expects()
            c = counts.setdefault(k, [0, 0])
            c[1] += 1
            if ok:
                c[0] += 1
                print("PASS: %s: %s" % (tag, "as expected" if k == "nothing" else k + " reported"))
            else:
                failed += 1
                print("FAIL: %s: %s" % (tag, detail))
            sys.stdout.flush()
    for k in ("data race", "use after free", "thread leak", "nothing"):
        if k in counts:
            print("%s expected: %d of %d runs right" % (k, counts[k][0], counts[k][1]))
    return 1 if failed or not jobs else 0


if __name__ == "__main__":
    sys.exit(main())
