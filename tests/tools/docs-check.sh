#!/bin/sh
# docs-check.sh — the documents name only what exists: every relative
# link of README.md and docs/*.md, ](path) or ](path#anchor), leads to a
# file or directory of the source tree, and every backquoted `src/...`
# and `tests/...` path in docs/*.md exists (a `*`, a {a,b} list or a <placeholder> in it
# must match something).  Anchors are not checked.  Every green name
# (`__green_*`, `__sysio_*`, `GREEN_*`) and file name (`x.c`, `x.h`) a
# document gives, in backquotes or a fenced block, or a source comment
# mentions exists; every call-chain walk's calls are the code's; every
# number marked <!-- fact KEY --> is the tree's (tools/docs.py).  The manual pages:
# each _np function include/ declares has its section 3 page, each page
# of docs/man is installed (Makefile.am's dist_man_MANS), and groff reads
# each without a warning.  Reads only the source tree: nothing needs to be
# built (but for the layout facts, read from a built program if any).
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

# srcpaths FILE: "LINE PATTERN" for each backquoted src/ or tests/ path, a {a,b}
# list expanded and a <placeholder> made a `*`
srcpaths() {
	awk '{
		s = $0
		while (match(s, /`(src|tests)\/[^`]*`/)) {
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
	check "$f" "src/ or tests/ path" ""
done

# ---- names, walks and facts (tools/docs.py says what each one checks):
# every green name and file name a document gives, in backquotes or in a
# fenced block, or a source comment mentions, exists; every call-chain
# walk's calls are calls of the code; every number marked as a fact is
# the tree's.  With PLANT set, the check reads one more document with a
# stale name in a fenced block, a missing file, a walk whose call goes
# the other way and a wrong size, so that its own failure is tested below.
# The layout facts are x86_64's, read from the layout table of a built
# program (tests/prog/layout.c) when there is one.
layout=
if [ "${GREEN_ARCH:-}" = x86_64 ] && [ -x "$B/tests/prog/layout-green" ]; then
	layout=$T/layout
	"$B/tests/prog/layout-green" >"$layout" 2>/dev/null || layout=
fi
names() {
	python3 tools/docs.py "$S" "$(sed -n 's/^MUSL_SRC = //p' "$B/Makefile" 2>/dev/null)" \
		"$(sed -n 's/^CHECK_SRC = //p' "$B/Makefile" 2>/dev/null)" "$layout" ${1:+"$1"}
}
if command -v python3 >/dev/null 2>&1; then
	out=$(names)
	if [ -z "$out" ]; then
		pass "every name, file, walk and fact in the documents and the comments holds${layout:+ (layout facts from a built program)}"
	else
		printf '%s\n' "$out" | while read -r l; do echo "FAIL: $l"; done
		fail "documents that do not hold (above)"
	fi
	stale=__green_planted_$$   # made here: the tree names no such thing
	{
		printf 'A planted `%s` in `nowhere%s.c`.\n\n' "$stale" $$
		printf '```\n__green_sys(nr, ...)   src/sysio/dispatch.c\n  %s_fenced(x)   src/sysio/fdio.c\n```\n\n' "$stale"
		printf '```\n__green_wait(q, k, o, d)   src/core/sched/sched.c\n'
		printf '  __sysio_io_iov() → __sysio_io_buf()   src/sysio/fdio.c\n```\n\n'
		printf 'The descriptor is 12345<!-- fact layout thread.size --> bytes; '
		printf 'green replaces 7<!-- fact rows src/replaced.txt --> members.\n'
	} >"$T/planted.md"
	missed=
	out=$(names "$T/planted.md")
	case $out in
	*"\`$stale\` names nothing"*) ;;
	*) missed=1; fail "the name check missed a planted stale name: $out" ;;
	esac
	case $out in
	*"planted.md:5: the walk names ${stale}_fenced, which is defined nowhere"*) ;;
	*) missed=1; fail "the walk check missed a stale name in a fenced block: $out" ;;
	esac
	case $out in
	*"no file nowhere$$.c"*) ;;
	*) missed=1; fail "the name check missed a planted missing file: $out" ;;
	esac
	case $out in
	*"the walk has __sysio_io_iov call __sysio_io_buf, which its body does not reach"*) ;;
	*) missed=1; fail "the walk check missed a call that goes the other way: $out" ;;
	esac
	case $out in
	*"says 7 where rows src/replaced.txt is"*) ;;
	*) missed=1; fail "the fact check missed a wrong count: $out" ;;
	esac
	if [ -n "$layout" ]; then
		case $out in
		*"says 12345 where layout thread.size is"*) ;;
		*) missed=1; fail "the fact check missed a wrong size: $out" ;;
		esac
	fi
	[ -n "$missed" ] || pass "the check finds a planted stale name (in text and in a fenced block), a missing file, a call that goes the other way and a wrong count${layout:+ and size}"
else
	echo "SKIP: the name, walk and fact checks (no python3)"
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
