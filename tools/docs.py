#!/usr/bin/env python3
"""docs.py — the documents say only what the tree holds (tests/tools/docs-check.sh).

    tools/docs.py ROOT MUSL_SRC CHECK_SRC LAYOUT [EXTRA.md ...]

Reads README.md, docs/*.md, the folders' README.md under src/ and the
source comments of ROOT (the top of the
tree) and prints one line per finding, nothing when all hold:

names   Every green identifier (__green_*, __sysio_*, GREEN_*) that a
        document names in backquotes or in a fenced block, or that a source
        comment mentions, exists in the code (a comment's mention must not be
        the only one); every file name (x.c, x.h) they give exists in the
        tree, in musl's or Check's source, among the system's headers or the
        files the build makes.
walks   A call-chain walk is a fenced block whose lines start with a call,
        `name(...)` or a bare name followed by two spaces, indented under
        its caller.  Each name of ours (a green prefix) must be defined in the
        tree; a name the line places in a file (`src/.../x.c`, `x.c`, `x.h`)
        must be defined in that file; and where the caller is defined in the
        tree, the callee must be reachable from the caller's body, through
        the static and inline functions and static tables it names.  On one
        line, `a() -> b()` is a call of b by a (or by what a calls just
        before), `a() / b()` two calls at the same place.
facts   A number followed by <!-- fact KEY --> must be KEY's value: `rows
        PATH`, the lines of PATH that are neither blank nor comments;
        `layout NAME`, the entry NAME of the layout table the build links
        into every program (LAYOUT: a file of "name value size" lines, made
        by tests/prog/layout.c; facts of that kind are skipped without it);
        `budget OP TCB STACKS`, the budget of tests/tools/budget/budgets.txt.
"""
import os, re, sys

TOK = re.compile(r"\b(__green_[A-Za-z0-9_]+|__sysio_[A-Za-z0-9_]+|GREEN_[A-Z0-9_]+)(\*?)")
FILE = re.compile(r"(?<![/\w.-])([a-z0-9_+-]+\.[ch])\b")
OURS = re.compile(r"^(__green_|__sysio_|green_|GREEN_)")
# named on purpose though not in the code: environment.md's examples of a
# misspelt variable; the files of the external conformance suite; the
# user's program of testing-your-program.md
ALLOWED = {"GREEN_QUANTUM", "GREEN_STAKCS", "threads_scenarii.c", "testfrmw.c", "bank.c"}
FACT = re.compile(r"(\d[\d,.]*)\s*(?:[-\w ]{0,12}?)\s*<!--\s*fact\s+([^>]*?)\s*-->")
CMT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def walk(d):
    for dp, dn, fn in os.walk(d):
        dn[:] = sorted(x for x in dn if not x.startswith(("build", ".git")))
        for f in sorted(fn):
            yield os.path.join(dp, f)


def strip_c(text):
    """comments and literals blanked, newlines kept"""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', blank, text, flags=re.S)


class Code:
    """the functions of the tree's C and assembly sources, with bodies"""

    def __init__(self, paths):
        self.defs = {}          # name -> [(path, body, local)]
        self.tables = {}        # path -> {name: initializer} (static data)
        self.aliases = []       # (name, alias): weak_alias(name, alias)
        for p in paths:
            if p.endswith((".c", ".h")):
                self.c_file(p)
            elif p.endswith(".S"):
                self.s_file(p)
        for a, b in self.aliases:
            if a in self.defs:
                self.defs.setdefault(b, []).extend(self.defs[a])

    def c_file(self, path):
        raw = open(path, errors="replace").read()
        s = strip_c(raw)
        for a, b in re.findall(r"\b(?:weak|strong)_alias\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)", s):
            self.aliases.append((a, b))
        s = re.sub(r"^[ \t]*#(?:\\\n|[^\n])*", lambda m: re.sub(r"[^\n]", " ", m.group(0)), s, flags=re.M)
        tables = self.tables.setdefault(path, {})
        depth, i, n = 0, 0, len(s)
        while i < n:
            c = s[i]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            elif depth == 0 and (c.isalpha() or c == "_"):
                m = re.match(r"[A-Za-z_]\w*", s[i:])
                name = m.group(0)
                j = i + len(name)
                k = j
                while k < n and s[k] in " \t\n":
                    k += 1
                if k < n and s[k] == "(":
                    close = self.match(s, k, "(", ")")
                    r = close + 1
                    while True:   # attributes and whitespace before the body
                        while r < n and s[r] in " \t\n":
                            r += 1
                        a = re.match(r"__attribute__\s*\(", s[r:])
                        if not a:
                            break
                        r = self.match(s, r + a.end() - 1, "(", ")") + 1
                    if r < n and s[r] == "{":
                        end = self.match(s, r, "{", "}")
                        head = s[s.rfind("\n", 0, i) + 1:i]
                        local = bool(re.search(r"\bstatic\b|\binline\b", head)) or path.endswith(".h")
                        self.defs.setdefault(name, []).append((path, s[r:end + 1], local))
                        i = end + 1
                        continue
                elif k < n and s[k] in "[=":
                    head = s[s.rfind(";", 0, i) + 1:i]
                    if "static" in head:
                        e = s.find(";", k)
                        tables[name] = s[k:e if e > 0 else n]
                i = j
                continue
            i += 1

    @staticmethod
    def match(s, i, o, c):
        depth = 0
        for k in range(i, len(s)):
            if s[k] == o:
                depth += 1
            elif s[k] == c:
                depth -= 1
                if not depth:
                    return k
        return len(s) - 1

    def s_file(self, path):
        lines = open(path, errors="replace").read().split("\n")
        cur, body = None, []
        for line in lines:
            m = re.match(r"^([A-Za-z_]\w*):", line)
            if m:
                if cur:
                    self.defs.setdefault(cur, []).append((path, "\n".join(body), False))
                cur, body = m.group(1), []
            elif cur is not None:
                body.append(line)
        if cur:
            self.defs.setdefault(cur, []).append((path, "\n".join(body), False))

    def defined_in(self, name, place):
        return any(p == place or p.endswith("/" + place) for p, _, _ in self.defs.get(name, ()))

    def reaches(self, caller, callee, depth=4):
        """is callee named by caller's body, or by a static or inline
        function or a static table that the body names (depth levels)?"""
        seen, frontier = set(), [(p, b) for p, b, _ in self.defs.get(caller, ())]
        for _ in range(depth):
            nxt = []
            for path, body in frontier:
                ids = set(re.findall(r"[A-Za-z_]\w*", body))
                if callee in ids:
                    return True
                for x in ids - seen:
                    seen.add(x)
                    tab = self.tables.get(path, {}).get(x)
                    if tab is not None:
                        nxt.append((path, tab))
                    for p, b, local in self.defs.get(x, ()):
                        if local and (p == path or p.endswith(".h")):
                            nxt.append((p, b))
            frontier = nxt
        return False


def fenced_blocks(path):
    """(first line number, [lines]) of each fenced block"""
    out, cur, start = [], None, 0
    for n, line in enumerate(open(path), 1):
        if line.lstrip().startswith("```"):
            if cur is None:
                cur, start = [], n + 1
            else:
                out.append((start, cur))
                cur = None
            continue
        if cur is not None:
            cur.append(line.rstrip("\n"))
    return out


CALL = re.compile(r"^(\s*)([A-Za-z_]\w*)(?:\([^)]*\)?|(?=\s{2,}\S)|$)")


def walks(path, code, bad):
    for start, lines in fenced_blocks(path):
        entries = []            # (indent, [names on the line], line number, place)
        for k, line in enumerate(lines):
            m = CALL.match(line)
            if not m or not line.strip():
                continue
            rest = line[m.end():]
            names, text = [m.group(2)], line.strip()
            # a chain on one line: "a() -> b()" or "a() / b()"
            for sep, nm in re.findall(r"\s(→|/)\s+([A-Za-z_]\w*)(?=\(|\s|$)", text):
                names.append(("→" if sep == "→" else "/") + nm)
            place = re.search(r"(?:src/[\w/<>.-]+/)?([\w-]+\.[chS])\b", rest)
            entries.append((len(m.group(1)), names, start + k, place.group(0) if place else None))
        if len(entries) < 2 or not any(e[1][0].startswith(("__green", "__sysio", "green_", "__pthread")) or
                                       OURS.match(e[1][0]) for e in entries):
            continue        # not a walk: a command, a listing, output
        stack = []          # (indent, callers: the names that line ends with)
        passed = set()      # names passed as arguments: called through a pointer
        for indent, names, n, place in entries:
            while stack and stack[-1][0] >= indent:
                stack.pop()
            first = names[0]
            line_names = [first] + [x[1:] for x in names[1:]]
            for x in line_names:
                if OURS.match(x) and x not in code.defs and not x.startswith("GREEN_"):
                    bad.append("%s:%d: the walk names %s, which is defined nowhere" % (path, n, x))
            if place and "<" not in place and first in code.defs and not place.startswith("musl"):
                if not code.defined_in(first, place.split("/")[-1] if "/" not in place else place):
                    bad.append("%s:%d: the walk places %s in %s, which does not define it" % (path, n, first, place))
            callers = [c for c in (stack[-1][1] if stack else []) if c in code.defs]
            if callers and first in code.defs and first not in passed and \
                    not any(code.reaches(c, first) for c in callers):
                bad.append("%s:%d: the walk has %s call %s, which its body does not reach" % (path, n, callers[-1], first))
            prev = first
            for x in names[1:]:
                nm = x[1:]
                if x[0] == "→" and nm in code.defs and prev in code.defs and \
                        not code.reaches(prev, nm) and not code.reaches(first, nm):
                    bad.append("%s:%d: the walk has %s call %s, which its body does not reach" % (path, n, prev, nm))
                if x[0] == "/" and callers:
                    c = callers[-1]
                    if c in code.defs and nm in code.defs and not code.reaches(c, nm):
                        bad.append("%s:%d: the walk has %s call %s, which its body does not reach" % (path, n, c, nm))
                if x[0] == "→":
                    prev = nm
            musl = place is None and "musl" in lines[n - start]
            passed.update(re.findall(r"[(,]\s*([A-Za-z_]\w*)\s*(?=[,)])", lines[n - start]))
            if musl:
                continue    # musl's own function: not the tree's of that name
            stack.append((indent, [first] + [x[1:] for x in names[1:] if x[0] == "/"] + ([prev] if prev != first else [])))


def facts(root, path, layout, bad):
    for n, line in enumerate(open(path), 1):
        for m in FACT.finditer(line):
            said, key = m.group(1).replace(",", ""), m.group(2).split()
            want = None
            if key[0] == "rows" and len(key) == 2:
                f = os.path.join(root, key[1])
                if os.path.exists(f):
                    want = str(sum(1 for l in open(f) if l.strip() and not l.lstrip().startswith("#")))
            elif key[0] == "layout" and len(key) == 2:
                if layout is None:
                    continue
                want = layout.get(key[1])
            elif key[0] == "budget" and len(key) == 4:
                for l in open(os.path.join(root, "tests/tools/budget/budgets.txt")):
                    w = l.split()
                    if len(w) >= 4 and not l.startswith("#") and w[:3] == key[1:]:
                        want = w[3]
            else:
                bad.append("%s:%d: unknown fact %s" % (path, n, " ".join(key)))
                continue
            if want is None:
                bad.append("%s:%d: the fact %s has no value in the tree" % (path, n, " ".join(key)))
            elif said != want:
                bad.append("%s:%d: says %s where %s is %s" % (path, n, m.group(1), " ".join(key), want))


def main(argv):
    root, musl, check, layout_file = argv[:4]
    plant = argv[4:]
    os.chdir(root)
    layout = None
    if layout_file and os.path.exists(layout_file):
        layout = {}
        for l in open(layout_file):
            w = l.split()
            if len(w) == 3:
                layout[w[0]] = w[1]
    count, files = {}, set()
    code_paths = [p for d in ("src", "include", "gdb", "tools", "tests", "bench", "crt") for p in walk(d)]
    code_paths += [f for f in ("configure.ac", "Makefile.am", "musl.am", "cxx.am", "quickstart", ".ci/run")
                   if os.path.exists(f)]
    for p in code_paths:
        files.add(os.path.basename(p))
        s = open(p, errors="replace").read()
        for m in TOK.finditer(s):
            count[m.group(1)] = count.get(m.group(1), 0) + 1
        if p.endswith(".am"):
            files.update(os.path.basename(x) for x in re.findall(r"[\w/.-]+\.[ch]\b", s))
    for d in (musl, check, "/usr/include"):
        if d and os.path.isdir(d):
            files.update(os.path.basename(p) for p in walk(d))

    def known(tok, star, need):
        if tok in ALLOWED:
            return True
        if star or tok.endswith("_"):
            return any(k.startswith(tok) for k in count)
        return count.get(tok, 0) >= need

    bad = []
    docs = ["README.md"] + sorted("docs/" + f for f in os.listdir("docs") if f.endswith(".md"))
    docs += [x for x in walk("src") if x.endswith("README.md")] + plant
    for p in docs:
        fenced = False
        for n, line in enumerate(open(p), 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            spans = [line] if fenced else re.findall(r"`([^`]+)`", line)
            for span in spans:
                for m in TOK.finditer(span):
                    if not known(m.group(1), m.group(2), 1):
                        bad.append("%s:%d: `%s` names nothing in the code" % (p, n, m.group(1)))
                for m in FILE.finditer(span):
                    if m.group(1) not in files and m.group(1) not in ALLOWED:
                        bad.append("%s:%d: no file %s" % (p, n, m.group(1)))
    for p in code_paths:
        if not p.startswith(("src/", "include/", "crt/")) or not p.endswith((".c", ".h", ".S")):
            continue
        s = open(p, errors="replace").read()
        for c in CMT.finditer(s):
            line = s.count("\n", 0, c.start()) + 1
            for m in TOK.finditer(c.group(0)):
                if not known(m.group(1), m.group(2), 2):
                    bad.append("%s:%d: the comment names %s, which nothing else does" % (p, line, m.group(1)))
            for m in FILE.finditer(c.group(0)):
                if m.group(1) not in files:
                    bad.append("%s:%d: the comment names a file %s that does not exist" % (p, line, m.group(1)))
    code = Code([p for p in code_paths if p.startswith(("src/", "crt/"))])
    for p in docs:
        walks(p, code, bad)
        facts(root, p, layout, bad)
    print("\n".join(sorted(set(bad))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
