#!/bin/sh
# docs-check.sh — the documents name only what exists: every relative
# link of README.md and docs/*.md, ](path) or ](path#anchor), leads to a
# file or directory of the source tree, and every backquoted `src/...`
# path in docs/*.md exists (a `*`, a {a,b} list or a <placeholder> in it
# must match something).  Anchors are not checked.  Every green name
# (`__green_*`, `GREEN_*`) and file name (`x.c`, `x.h`) a document
# backquotes or a source comment mentions exists (names, below).  The manual pages:
# each _np function include/ declares has its section 3 page, each page
# of docs/man is installed (Makefile.am's dist_man_MANS), and groff reads
# each without a warning.  Reads only the source tree: nothing needs to be
# built.
. "$GREEN_SRC/tests/lib.sh"
cd "$S" || exit 1
T=$(mktemp -d "${TMPDIR:-/tmp}/green-docs.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM

# links FILE: "LINE TARGET" for each relative link outside fenced code,
# the anchor and any title dropped
links() {
	awk '
	/^[ \t]*```/ { fenced = !fenced; next }
	fenced { next }
	{
		s = $0
		while ((i = index(s, "](")) > 0) {
			s = substr(s, i + 2)
			if (!(j = index(s, ")"))) break
			t = substr(s, 1, j - 1)
			sub(/[ \t].*/, "", t)
			sub(/#.*/, "", t)
			if (t != "" && t !~ /^[A-Za-z][A-Za-z0-9+.-]*:/) print NR, t
		}
	}' "$1"
}

# srcpaths FILE: "LINE PATTERN" for each backquoted src/ path, a {a,b}
# list expanded and a <placeholder> made a `*`
srcpaths() {
	awk '{
		s = $0
		while (match(s, /`src\/[^`]*`/)) {
			p = substr(s, RSTART + 1, RLENGTH - 2)
			s = substr(s, RSTART + RLENGTH)
			sub(/[ \t].*/, "", p)
			gsub(/<[^>]*>/, "*", p)
			if (match(p, /\{[^}]*\}/)) {
				n = split(substr(p, RSTART + 1, RLENGTH - 2), alt, ",")
				for (k = 1; k <= n; k++)
					print NR, substr(p, 1, RSTART - 1) alt[k] substr(p, RSTART + RLENGTH)
			} else {
				print NR, p
			}
		}
	}' "$1"
}

# exists PATTERN: does it name or match something?
exists() {
	for x in $1; do
		[ -e "$x" ] && return 0
	done
	return 1
}

# check FILE KIND BASE: each "LINE TARGET" of $T/list exists below BASE
# (a target that starts with / below the top of the tree)
check() {
	n=0 bad=0
	while read -r line target; do
		n=$((n + 1))
		case $target in
		/*) path=${target#/} ;;
		*) path=$3$target ;;
		esac
		if ! exists "$path"; then
			bad=$((bad + 1))
			fail "$1:$line: $2 $target: no such file or directory"
		fi
	done <"$T/list"
	[ "$bad" != 0 ] || pass "$1: every $2 exists ($n)"
}

for f in README.md docs/*.md docs/man/*.md; do
	[ -f "$f" ] || continue
	dir=$(dirname "$f")
	links "$f" >"$T/list"
	check "$f" link "$dir/"
done
for f in docs/*.md docs/man/*.md; do
	[ -f "$f" ] || continue
	srcpaths "$f" >"$T/list"
	check "$f" "src/ path" ""
done

# ---- names: every green identifier (__green_*, GREEN_*) that a document
# backquotes, or a source comment mentions, exists in the code (a
# comment's mention must not be the only one), and every file name (x.c,
# x.h) they give exists in the tree, in musl's or Check's source, among
# the system's headers or the files the build makes.  With PLANT set, the
# check reads one more document naming a stale identifier and a missing
# file, so that its own failure is tested below.
names() {
	python3 - "$S" "$(sed -n 's/^MUSL_SRC = //p' "$B/Makefile" 2>/dev/null)" \
		"$(sed -n 's/^CHECK_SRC = //p' "$B/Makefile" 2>/dev/null)" ${1:+"$1"} <<'PY'
import os, re, sys
root, musl, check = sys.argv[1:4]
plant = sys.argv[4:]
os.chdir(root)
TOK = re.compile(r"\b(__green_[A-Za-z0-9_]+|GREEN_[A-Z0-9_]+)(\*?)")
FILE = re.compile(r"(?<![/\w.-])([a-z0-9_+-]+\.[ch])\b")
# named on purpose though not in the code: environment.md's example of a
# misspelt variable; the files of the external conformance suite
ALLOWED = {"GREEN_QUANTUM", "threads_scenarii.c", "testfrmw.c"}
count, files = {}, set()
def walk(d):
    for dp, dn, fn in os.walk(d):
        dn[:] = [x for x in dn if not x.startswith(("build", ".git"))]
        for f in fn:
            yield os.path.join(dp, f)
code = [p for d in ("src", "include", "gdb", "tools", "tests", "bench", "crt") for p in walk(d)]
code += [f for f in ("configure.ac", "Makefile.am", "musl.am", "cxx.am", "quickstart", ".ci/run") if os.path.exists(f)]
for p in code:
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
docs = ["README.md"] + sorted("docs/" + f for f in os.listdir("docs") if f.endswith(".md")) + plant
for p in docs:
    fenced = False
    for n, line in enumerate(open(p), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        for span in re.findall(r"`([^`]+)`", line):
            for m in TOK.finditer(span):
                if not known(m.group(1), m.group(2), 1):
                    bad.append("%s:%d: `%s` names nothing in the code" % (p, n, m.group(1)))
            for m in FILE.finditer(span):
                if m.group(1) not in files and m.group(1) not in ALLOWED:
                    bad.append("%s:%d: no file %s" % (p, n, m.group(1)))
CMT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
for p in code:
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
print("\n".join(sorted(set(bad))))
PY
}
if command -v python3 >/dev/null 2>&1; then
	out=$(names)
	if [ -z "$out" ]; then
		pass "every green name and file name in the documents and the comments exists"
	else
		printf '%s\n' "$out" | while read -r l; do echo "FAIL: $l"; done
		fail "names that do not exist (above)"
	fi
	stale=__green_planted_$$   # made here: the tree names no such thing
	printf 'A planted `%s` in `nowhere%s.c`.\n' "$stale" $$ >"$T/planted.md"
	out=$(names "$T/planted.md")
	case $out in
	*"$stale"*"names nothing"*"no file nowhere$$.c"*)
		pass "the name check finds a planted stale name and a missing file" ;;
	*) fail "the name check missed the planted names: $out" ;;
	esac
else
	echo "SKIP: the name check (no python3)"
fi

# ---- the manual pages
np=$(sed -n 's/^int \([a-z_]*_np\)(.*/\1/p' include/*.h | sort -u)
[ -n "$np" ] || fail "include/: no _np functions found"
for f in $np; do
	if [ -f "docs/man/$f.3" ]; then pass "$f has a manual page"
	else fail "$f: no docs/man/$f.3"; fi
done
for f in docs/man/*.[137]; do
	grep -q "$f" Makefile.am || fail "$f is not in Makefile.am's dist_man_MANS"
done
for p in green-cc.1 green-c++.1 green-explore.1 green.7; do
	[ -f "docs/man/$p" ] || fail "no docs/man/$p"
done
if command -v groff >/dev/null 2>&1; then
	for f in docs/man/*.[137]; do
		grep -q '^\.so ' "$f" && continue
		if out=$(groff -man -ww -z "$f" 2>&1) && [ -z "$out" ]; then pass "$f: groff reads it cleanly"
		else fail "$f: $out"; fi
	done
else
	echo "SKIP: groff is not installed"
fi
finish
