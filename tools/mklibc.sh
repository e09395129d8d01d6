#!/bin/sh
# mklibc.sh [--shared WRAPS] MUSL_BUILD REPLACED_LIST LIBGREEN OUT [EXTRA...]
#
# Build the augmented libc: every object of musl's libc except the
# members named in REPLACED_LIST (src/replaced.txt), plus the objects of
# LIBGREEN.  Members are chosen by their path in musl's object tree, so
# members that share a base name (clone, free, realloc) never collide.
#
# Without --shared, OUT is an archive, libc.a.  With --shared, OUT is a
# shared object made as musl makes its own libc.so (its Makefile's rule
# and link flags, from its config.mak): the same objects, which are
# position-independent, and musl's dynamic linker (obj/ldso/), so that
# one object is the program's libc and its loader; LIBGREEN's objects
# must be position-independent too.  WRAPS names a file listing the
# functions whose green version stands in front of musl's
# (tools/wraps.sh): in the shared object musl's definition of each NAME
# is renamed __real_NAME and green's __wrap_NAME becomes NAME, which is
# what ld's --wrap does for a static link.  The link itself checks what
# tools/check-replaced.sh checks in an archive: no symbol is left
# undefined (-Wl,--no-undefined, musl's flag) and none is defined twice.
# EXTRA objects, if any, are linked in too (dynamic.am: what Debian's
# own musl libc.so has beyond musl's source).
set -eu
wraps=
if [ "$1" = --shared ]; then wraps=$2; shift 2; fi
musl=$1 list=$2 green=$3 out=$4
shift 4
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
[ -n "$wraps" ] && ext=lo
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

if [ -z "$wraps" ]; then
	(cd "$musl" && "$AR" rc "$out.tmp" $(cat "$tmp/keep"))
	"$AR" r "$out.tmp" "$tmp"/green/*.o
	"$RANLIB" "$out.tmp"
	mv "$out.tmp" "$out"
	echo "mklibc: $(grep -c -v '^obj/ldso/' "$tmp/keep") musl members kept, $(wc -l < "$tmp/replaced") replaced, $(ls "$tmp/green" | wc -l) green objects"
	exit 0
fi

# ---- the shared object
NM=${NM:-nm}
OBJCOPY=${OBJCOPY:-objcopy}
CC=${CC:-cc}
mk() { sed -n "s/^$1 = //p" "$musl/config.mak"; }
# musl's members and loader objects that define a wrapped name, renamed
# in copies; green's __wrap_NAME renamed in place (they are extracted
# copies already)
mkdir -p "$tmp/renamed"
(cd "$musl" && find obj/ldso -name '*.lo' | sort) >> "$tmp/keep"
if ! grep -q '^obj/ldso/' "$tmp/keep"; then
	echo "mklibc: $musl has no dynamic linker objects (obj/ldso/: musl configured --disable-shared?)" >&2
	exit 1
fi
# (one nm over them all: "object:address type name")
(cd "$musl" && "$NM" -A --defined-only $(cat "$tmp/keep") 2>/dev/null) |
	awk 'FILENAME != "-" { w[$1] = 1; next }
	     ($2 == "T" || $2 == "W") && ($3 in w) { sub(/:.*/, "", $1); print $1, $3 }' \
	"$wraps" - > "$tmp/defines"
for o in $(awk '{ print $1 }' "$tmp/defines" | sort -u); do
	args=$(awk -v o="$o" '$1 == o { printf " --redefine-sym %s=__real_%s", $2, $2 }' "$tmp/defines")
	"$OBJCOPY" $args "$musl/$o" "$tmp/renamed/$(echo "$o" | tr / _)"
done
awk -v m="$musl" -v r="$tmp/renamed" -v k="$tmp/keep" 'FILENAME != k { d[$1] = 1; next }
	{ if ($1 in d) { c = $1; gsub("/", "_", c); print r "/" c } else print m "/" $1 }' \
	"$tmp/defines" "$tmp/keep" > "$tmp/musl.objs"
args=
for f in $(cat "$wraps"); do args="$args --redefine-sym __wrap_$f=$f"; done
for o in "$tmp"/green/*.o; do "$OBJCOPY" $args "$o"; done
# musl's own rule: lib/libc.so in its Makefile; musl's renamed
# definitions are the library's own business, not exported.  The
# compiler's runtime without its unwinder (libgcc_eh): green's code that
# unwinds (pthread_once's cleanup, pthread_exit's unwinding) must use the
# program's own, the one C++ code throws with, not a second copy whose
# state the first never set; the program hands it over at start-up
# (src/core/thread/unwinder.c)
echo '{ global: *; local: __real_*; };' > "$tmp/hide.ver"
libcc=$(mk LIBCC | sed 's/ *-lgcc_eh//')
# shellcheck disable=SC2046
$CC $(mk CFLAGS_AUTO) $(mk CFLAGS_C99FSE) $(mk LDFLAGS_AUTO) -nostdlib -shared \
	-Wl,-e,_dlstart -Wl,--version-script="$tmp/hide.ver" -o "$out.tmp" \
	$(cat "$tmp/musl.objs") "$tmp"/green/*.o "$@" $libcc
mv "$out.tmp" "$out"
echo "mklibc: $(grep -c -v '^obj/ldso/' "$tmp/keep") musl members kept, $(wc -l < "$tmp/replaced") replaced, $(ls "$tmp/green" | wc -l) green objects, $(wc -l < "$wraps") renamed, linked with musl's dynamic linker"
