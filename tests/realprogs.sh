#!/usr/bin/env bash
# realprogs.sh — a real program's own test suite against green, with
# separate and with copied stacks.  Not part of `make check`.
#
#   tests/realprogs.sh BUILDDIR
#
# Fetches libevent's Debian source package into BUILDDIR/realprogs
# (apt-get source, deb-src enabled by tools/debsrc.sh; nothing is kept in
# this tree), builds it and its regression suite (test/regress) with
# BUILDDIR's green-cc, and runs the suite once per stack mode
# (GREEN_STACKS=separate, then copied), each run under a timeout.  Prints
# the suite's summary line per mode, and the tests that failed; exits 0
# only if both modes pass the same number of tests and none fails.
#
# Environment:
#   RP_TIMEOUT  seconds a run of the suite may take (600)
#   RP_TESTS    the suite's test patterns (all of them: "")
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: tests/realprogs.sh BUILDDIR" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
cc=$build/bin/green-cc
[ -x "$cc" ] || { echo "realprogs.sh: no $cc (build first)" >&2; exit 2; }
. "$here/tools/debsrc.sh"

top=$build/realprogs
src=$top/libevent-2.1.12-stable
fetch_source libevent "$src"

# The unpacked tree has configure; dpkg-source's patches leave the
# autotools inputs newer than their outputs, which must not be remade.
mk() { make -C "$src" ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true "$@"; }
if [ ! -x "$src/test/regress" ] || [ "$cc" -nt "$src/test/regress" ]; then
	say "building libevent and its regression suite with $cc"
	(cd "$src" && ./configure -q CC="$cc" --disable-shared --disable-openssl) >"$top/configure.log" 2>&1 ||
		{ echo "realprogs.sh: configure failed, see $top/configure.log" >&2; exit 1; }
	rm -f "$src/test/regress"
	{ mk -j"$(nproc)" && mk test/regress; } >"$top/make.log" 2>&1 ||
		{ echo "realprogs.sh: the build failed, see $top/make.log" >&2; exit 1; }
fi

st=0
declare -A ok
for mode in separate copied; do
	log=$top/libevent.$mode.log
	say "libevent regress, GREEN_STACKS=$mode"
	# shellcheck disable=SC2086
	(cd "$src" && GREEN_STACKS=$mode timeout "${RP_TIMEOUT:-600}" test/regress ${RP_TESTS:-}) >"$log" 2>&1
	rc=$?
	sum=$(grep -E '^(All [0-9]+ tests ok|[0-9]+ tests ok|[0-9]+/[0-9]+ TESTS FAILED)' "$log" | tail -1)
	[ $rc -eq 124 ] && sum="timed out after ${RP_TIMEOUT:-600} s ($sum)"
	echo "libevent $mode: ${sum:-no summary (exit status $rc)}"
	grep -E 'FAILED|\[.*FAILED\]' "$log" | grep -v 'TESTS FAILED' | sed 's/^/    /'
	ok[$mode]=$(printf '%s\n' "$sum" | grep -oE '[0-9]+ tests ok' | grep -oE '^[0-9]+')
	[ $rc -eq 0 ] || st=1
done
[ "${ok[separate]:-x}" = "${ok[copied]:-y}" ] || st=1
exit $st
