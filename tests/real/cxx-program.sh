#!/bin/sh
# cxx-program.sh — a real C++ threaded program that green did not write,
# built unchanged with green-c++ and its own tests run (docs/cxx.md):
# readerwriterqueue, Debian's source package of that name (a lock-free
# single-producer single-consumer queue and its blocking variants on POSIX
# semaphores), whose unit tests (tests/unittests) run a producer and a
# consumer std::thread against each other.  Its makefile's compile line
# (`make -n`) is run three times: with g++ against glibc, the reference,
# and with green-c++ in both threads modes; the test binary then runs as
# the makefile's `run` target would (--disable-prompt: it waits for a key
# otherwise), the green one cooperatively, time-sliced and with copied
# stacks.  Each green run must pass as many tests as the glibc build.
# The source is fetched (apt-get source) into the build tree the first
# time; where it cannot be fetched the test is skipped.
. "$GREEN_SRC/tests/lib.sh"
GXX=${GXX:-g++}
[ -x "$B/bin/green-c++" ] || { echo "SKIP: green-c++ is not built here (docs/cxx.md)"; exit 77; }
[ -z "$GREEN_RUN" ] || { echo "SKIP: native builds only"; exit 77; }
. "$S/tools/debsrc.sh"
D=$B/cxx-program
pkg=readerwriterqueue
src=$(ls -d "$D"/$pkg-*/ 2>/dev/null | head -1)
if [ -z "$src" ]; then
	mkdir -p "$D"
	# where only the upstream tarball of the package can be had (the
	# Debian part is packaging only), unpack that
	(cd "$D" && { apt-get source -qq $pkg/bookworm || apt-get source --download-only -qq $pkg/bookworm; } 2>&1 |
		grep -v '^W: Download is performed unsandboxed')
	src=$(ls -d "$D"/$pkg-*/ 2>/dev/null | head -1)
	if [ -z "$src" ] && ls "$D"/${pkg}_*.orig.tar.* >/dev/null 2>&1; then
		(cd "$D" && tar xf "$(ls ${pkg}_*.orig.tar.* | head -1)")
		src=$(ls -d "$D"/$pkg-*/ 2>/dev/null | head -1)
	fi
	[ -n "$src" ] || { echo "SKIP: apt-get source $pkg failed (no network or no deb-src?)"; exit 77; }
fi
U=$src/tests/unittests
echo "== $(basename "$src") from Debian's source package $pkg"
line=$(make -s -n -C "$U" unittests 2>/dev/null | grep '^g++ ' | head -1)
case $line in
"g++ "*" -o unittests "*) ;;
*) fail "the makefile's compile line is not what this script knows: $line"; finish; exit ;;
esac
args=${line#g++ }
scratch cxxprog
timeout_of 600

# build NAME COMPILER...: the makefile's line with COMPILER for g++
build() {
	n=$1
	shift
	if (cd "$U" && "$@" ${args%%-o unittests *} -o "$T/$n" ${args#*-o unittests }) >"$T/$n.log" 2>&1; then
		pass "built with $*"
	else
		fail "build with $*"
		tail -20 "$T/$n.log" | sed 's/^/    | /'
	fi
}
# runs NAME LABEL ENV...: run and count its tests
runs() {
	n=$1 label=$2
	shift 2
	[ -x "$T/$n" ] || return
	(cd "$U" && $TO env "$@" "$T/$n" --disable-prompt) >"$T/$n.out" 2>&1
	st=$?
	p=$(grep -c '^    passed$' "$T/$n.out")
	f=$(grep -c '^    FAILED!$' "$T/$n.out")
	echo "$label: $p passed, $f failed, status $st"
	last=$p lastst=$st
}
build glibc $GXX
build green "$B/bin/green-c++"
build onetoone "$B/bin/green-c++" --threads=1to1
last=0 lastst=x
runs glibc "g++ and glibc"
ref=$last
[ "$lastst" = 0 ] && [ "$ref" -gt 0 ] || { fail "the glibc build's own run failed (status $lastst)"; finish; exit; }
for m in "green, default quantum|green" "green, cooperative|green GREEN_QUANTUM_MS=0" \
	"green, 1 ms quantum|green GREEN_QUANTUM_MS=1" "green, copied stacks|green GREEN_STACKS=copied" \
	"green-c++ --threads=1to1|onetoone"; do
	label=${m%%|*}
	set -- ${m#*|}
	n=$1
	shift
	last=0 lastst=x
	runs $n "$label" "$@"
	if [ "$lastst" = 0 ] && [ "$last" = "$ref" ]; then
		pass "$label: $last of $ref tests pass, as with glibc"
	else
		fail "$label: $last passed (glibc: $ref), status $lastst"
		tail -15 "$T/$n.out" | sed 's/^/    | /'
	fi
done
finish
