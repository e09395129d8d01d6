#!/bin/sh
# race-gcc.sh — GCC 12's own ThreadSanitizer tests (c-c++-common/tsan,
# gcc.dg/tsan, g++.dg/tsan of the gcc-12 source), unmodified, built with
# green-cc --race and green-c++ --race and run as their DejaGnu harness
# would run them (tests/real/race-gcc.py says how): every test that expects a
# data race, a heap use after free or a thread leak must report it as
# its dg-output patterns say, and every test that expects none must run
# clean (docs/race.md).
#
# The tests come from the gcc source the build was configured with
# (--with-gcc-src), else from ${XDG_CACHE_HOME:-~/.cache}/green, where
# they are put the first time: Debian's gcc-12 source package is
# downloaded (apt-get source, deb-src enabled by tools/debsrc.sh) and only
# those three directories are kept.  SKIP (77) when neither works.
. "$GREEN_SRC/tests/lib.sh"

if [ -n "$GREEN_RUN" ] || [ ! -f "$B/lib/green/race.o" ]; then
	echo "SKIP: GCC's ThreadSanitizer tests (the detector is x86_64-only, native builds)"
	exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: GCC's ThreadSanitizer tests (no python3 to run them)"
	exit 77
fi
scratch race-gcc
timeout_of 900

have() { [ -d "$1/c-c++-common/tsan" ] && [ -d "$1/g++.dg/tsan" ] && [ -d "$1/gcc.dg/tsan" ]; }

suite=${GREEN_GCC_SRC:+$GREEN_GCC_SRC/gcc/testsuite}
if [ -z "$suite" ] || ! have "$suite"; then
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/green/gcc-12-tsan-tests
	suite=$cache/testsuite
	if ! have "$suite"; then
		echo "fetching GCC's ThreadSanitizer tests into $cache (Debian's gcc-12 source package)"
		dl=$T/gcc-12-dl
		mkdir -p "$dl" "$cache" || { echo "SKIP: cannot write $cache"; exit 77; }
		v=$(dpkg-query -W -f='${source:Version}' g++-12 2>/dev/null)
		if ! bash -c '. "$1/tools/debsrc.sh" && enable_deb_src >/dev/null && cd "$2" &&
		              { apt-get source --download-only -qq "gcc-12=$3" ||
		                apt-get source --download-only -qq gcc-12; }' \
		     sh "$S" "$dl" "$v" >"$T/fetch.log" 2>&1; then
			echo "SKIP: apt-get source gcc-12 failed (network or deb-src):"
			tail -3 "$T/fetch.log"
			exit 77
		fi
		tarball=$(ls "$dl"/gcc-12_*.orig.tar.gz 2>/dev/null | head -1)
		[ -f "$tarball" ] || { echo "SKIP: apt-get source gcc-12 gave no .orig.tar.gz"; exit 77; }
		mkdir -p "$dl/x"
		tar -xzf "$tarball" --wildcards '*/gcc-*.tar.xz' -O | xz -dc |
			tar -x -C "$dl/x" --wildcards 'gcc-*/gcc/testsuite/c-c++-common/tsan/*' \
			'gcc-*/gcc/testsuite/gcc.dg/tsan/*' 'gcc-*/gcc/testsuite/g++.dg/tsan/*'
		rm -rf "$suite" && mv "$dl"/x/gcc-*/gcc/testsuite "$suite" && rm -rf "$dl"
		have "$suite" || { echo "SKIP: the gcc-12 source has no ThreadSanitizer tests"; exit 77; }
	fi
fi

echo "GCC's ThreadSanitizer tests from $suite"
$TO python3 "$S/tests/real/race-gcc.py" "$B" "$suite" "$T"
