#!/bin/sh
# cxxrt-key.sh SRCDIR MUSL-SRC CXX — the name of the C++ runtime's
# directory in the cache (cxx.am, ./quickstart): the gcc version it is
# built from, which is the compiler's own (libstdc++'s headers must be
# the ones of the g++ that compiles against them), and a hash of what
# it is built against and how: that compiler, musl's version, green's
# headers, and the scripts that build it and its specs.  The same
# sources give the same name in any clone or build tree.
set -eu
srcdir=$1 musl=$2 cxx=$3
v=$($cxx -dumpfullversion 2>/dev/null || $cxx -dumpversion)
h=$( {
	$cxx --version | head -1
	$cxx -dumpmachine
	basename "$musl"
	head -1 "$musl/debian/changelog" 2>/dev/null || :
	cd "$srcdir" && cat include/*.h tools/mkcxxrt.sh
} | sha256sum | cut -c1-12)
echo "gcc-$v-$h"
