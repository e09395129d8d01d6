#!/bin/sh
# mklibc.sh MUSL_BUILD REPLACED_LIST LIBGREEN OUT
#
# Build the augmented libc.a: every object of musl's libc except the
# members named in REPLACED_LIST (src/replaced.txt), plus the objects of
# LIBGREEN.  Members are chosen by their path in musl's object tree, so
# members that share a base name (clone, free, realloc) never collide.
set -eu
musl=$1 list=$2 green=$3 out=$4
mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
green=$(cd "$(dirname "$green")" && pwd)/$(basename "$green")
AR=${AR:-ar}
RANLIB=${RANLIB:-ranlib}
tmp=$out.d
rm -rf "$tmp"
mkdir -p "$tmp/green"

# {arch} in the list is musl's CPU, and a line that starts `cpu:` counts
# only for that CPU; its archive holds .lo objects when the compiler makes
# PIC by default (AOBJS = $(LOBJS)), .o otherwise
arch=$(sed -n 's/^ARCH = //p' "$musl/config.mak")
ext=o
grep -q '^AOBJS = \$(LOBJS)' "$musl/config.mak" && ext=lo
grep -v '^#' "$list" | awk -v a="$arch" 'NF { m = $1
	if (m ~ /^[^\/]*:/) { if (index(m, a ":") != 1) next; m = substr(m, length(a) + 2) }
	sub(/\{arch\}/, a, m); print m }' > "$tmp/replaced"
(cd "$musl" && find obj/src -name "*.$ext" | sort) > "$tmp/all"
sed "s|^|obj/|; s|\$|.$ext|" "$tmp/replaced" > "$tmp/replaced.lo"
missing=$(grep -v -x -F -f "$tmp/all" "$tmp/replaced.lo" || true)
if [ -n "$missing" ]; then
	echo "mklibc: replaced members not found in musl's build: $missing" >&2
	exit 1
fi
grep -v -x -F -f "$tmp/replaced.lo" "$tmp/all" > "$tmp/keep"

dup=$("$AR" t "$green" | sort | uniq -d)
if [ -n "$dup" ]; then
	echo "mklibc: object names occur twice in $green (rename a source): $dup" >&2
	exit 1
fi
(cd "$tmp/green" && "$AR" x "$green")
rm -f "$out" "$out.tmp"
(cd "$musl" && "$AR" rc "$out.tmp" $(cat "$tmp/keep"))
"$AR" r "$out.tmp" "$tmp"/green/*.o
"$RANLIB" "$out.tmp"
mv "$out.tmp" "$out"
echo "mklibc: $(wc -l < "$tmp/keep") musl members kept, $(wc -l < "$tmp/replaced") replaced, $(ls "$tmp/green" | wc -l) green objects"
