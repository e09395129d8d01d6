#!/bin/sh
# docs-check.sh — the documents name only what exists: every relative
# link of README.md and docs/*.md, ](path) or ](path#anchor), leads to a
# file or directory of the source tree, and every backquoted `src/...`
# path in docs/*.md exists (a `*`, a {a,b} list or a <placeholder> in it
# must match something).  Anchors are not checked.  The manual pages:
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
