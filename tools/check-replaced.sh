#!/bin/sh
# check-replaced.sh MUSL_BUILD REPLACED_LIST LIBC
#
# Fails if replacing musl's members left a hole or a clash in LIBC (the
# augmented libc.a):
#   - a symbol that a removed member defined, that the rest of the archive
#     still references, and that nothing in the archive defines any more;
#   - a symbol defined strongly by two members (a link error waiting for
#     the program that pulls both in).
set -eu
musl=$1 list=$2 libc=$3
NM=${NM:-nm}
tmp=${TMPDIR:-/tmp}/green-check.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

arch=$(sed -n 's/^ARCH = //p' "$musl/config.mak")
ext=o
grep -q '^AOBJS = \$(LOBJS)' "$musl/config.mak" && ext=lo
grep -v '^#' "$list" | awk -v a="$arch" -v e="$ext" 'NF { m = $1
	if (m ~ /^[^\/]*:/) { if (index(m, a ":") != 1) next; m = substr(m, length(a) + 2) }
	sub(/\{arch\}/, a, m); print "obj/" m "." e }' > "$tmp/removed"
(cd "$musl" && $NM -g --defined-only $(cat "$tmp/removed")) 2>/dev/null |
	awk 'NF == 3 { print $3 }' | sort -u > "$tmp/lost"
$NM -g "$libc" 2>/dev/null | awk '$1 == "U" { print $2 }' | sort -u > "$tmp/used"
$NM -g --defined-only "$libc" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/defined"

holes=$(comm -12 "$tmp/lost" "$tmp/used" | comm -23 - "$tmp/defined")
status=0
if [ -n "$holes" ]; then
	echo "check-replaced: symbols still needed but no longer defined:" >&2
	echo "$holes" | sed 's/^/  /' >&2
	status=1
fi
dups=$($NM -g --defined-only "$libc" 2>/dev/null |
	awk 'NF == 3 && $2 ~ /^[TDBR]$/ { print $3 }' | sort | uniq -d)
if [ -n "$dups" ]; then
	echo "check-replaced: symbols defined strongly twice:" >&2
	echo "$dups" | sed 's/^/  /' >&2
	status=1
fi
[ $status = 0 ] && echo "check-replaced: no holes, no clashes"
exit $status
