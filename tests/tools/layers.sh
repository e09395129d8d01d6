#!/bin/sh
# layers.sh — the layering rules of docs/architecture.md that a grep can
# check, on the source tree (nothing needs to be built):
#   - a stub or member (src/stubs/, src/members/) opens no no-preempt
#     section and writes no field of a thread descriptor: it turns a musl
#     call into core calls (the members that keep the libc's per-thread
#     state write the running thread's struct green_libc_local, which is
#     theirs, through green_libc_local(): not matched here);
#   - a wait is marked a cancellation point only through GREEN_CP_WAIT
#     (gsched.h); deliver.c alone saves and restores the mark around a
#     handler;
#   - src/stubs/__syscall_cp.c stays the entry to the engine of
#     src/sysio/, not the engine;
#   - the I/O layer's own headers (src/sysio/io.h, sysio.h) are
#     included only inside src/sysio/: the core and the stubs use its
#     narrow ones (idlewait.h, fdwait.h, ioq.h);
#   - every .c and .S under src/ is named in an include.am (built, or a
#     test's source);
#   - src/include.am lists the libc's sources a directory at a time, each
#     directory's sorted;
#   - every .c and internal .h under src/ includes only internal headers
#     whose declarations it uses, and never the umbrella green.h
#     (tools/includes.py says how it decides), and the check fails on an
#     unused include planted in a copy of queue.c.
. "$GREEN_SRC/tests/lib.sh"
cd "$S" || exit 1
st=0
bad() { echo "FAIL: $*"; st=1; }

hits=$(grep -n 'GREEN_ENTER\|GREEN_LEAVE\|green_np_up\|green_np_down\|__green_np' src/stubs/*.c src/members/*.c)
[ -z "$hits" ] || bad "no-preempt sections in stubs or members:
$hits"
hits=$(grep -nE '(__green_cur|self|\bt)->[a-z_]+ *(=[^=]|\+\+|--)' src/stubs/*.c src/members/*.c)
[ -z "$hits" ] || bad "thread-descriptor fields written in stubs or members:
$hits"
hits=$(grep -nE 'canceling *= *[01];' src/core/*/*.c src/sysio/*.c src/stubs/*.c src/members/*.c | grep -v '^src/core/signal/deliver.c:')
[ -z "$hits" ] || bad "cancellation-point marks outside GREEN_CP_WAIT:
$hits"
hits=$(grep -n '#include "\(io\|sysio\)\.h"' $(find src -name '*.[ch]' -not -path 'src/sysio/*'))
[ -z "$hits" ] || bad "the I/O layer's own headers included outside src/sysio/:
$hits"
n=$(wc -l < src/stubs/__syscall_cp.c)
[ "$n" -le 40 ] || bad "src/stubs/__syscall_cp.c has $n lines: the engine belongs in src/sysio/"
# every source file of src/ is built by some include.am (or is the
# sources list's own, like a header beside its .c): none lies unused
ams=$(find . -name '*.am' -not -path './build*')
unlisted=
for f in $(find src -name '*.c' -o -name '*.S' | sort); do
	grep -qF "$f" $ams || unlisted="$unlisted $f"
done
[ -z "$unlisted" ] || bad "source files no include.am builds:$unlisted"
# each list of sources in src/include.am: a directory's files together
# and in order (a list runs from "x_SOURCES =" or "+=" to its last line)
hits=$(awk '
	/_SOURCES *\+?= */ { inlist = 1; delete seen; prev = ""; sub(/.*= */, "") }
	inlist {
		more = sub(/\\$/, "")
		for (i = 1; i <= NF; i++) {
			d = $i; sub(/\/[^\/]*$/, "", d)
			pd = prev; sub(/\/[^\/]*$/, "", pd)
			if (d == pd && $i < prev) print FILENAME ":" NR ": " $i " after " prev
			if (d != pd && (d in seen)) print FILENAME ":" NR ": " $i " away from the rest of " d "/"
			seen[d] = 1; prev = $i
		}
		if (!more) inlist = 0
	}' src/include.am)
[ -z "$hits" ] || bad "src/include.am: sources not grouped by directory and sorted:
$hits"
# each file includes what it uses, and no more
if command -v python3 >/dev/null 2>&1; then
	hits=$(python3 tools/includes.py 2>&1) || bad "includes unused (tools/includes.py):
$hits"
	T=$(mktemp -d "${TMPDIR:-/tmp}/green-layers.XXXXXX") || exit 1
	trap 'rm -rf "$T"' EXIT
	sed 's/^#include "sched\/gsched.h"$/&\n#include "signal\/ptimer.h"/' src/core/sched/queue.c > "$T/queue.c"
	hits=$(python3 tools/includes.py "$T/queue.c" 2>&1)
	case $hits in
	*'includes signal/ptimer.h but uses nothing'*) ;;
	*) bad "an unused include planted in queue.c is not caught: $hits" ;;
	esac
	incl="each file includes only headers it uses (a planted unused one caught)"
	# the floors of src/core/layers.txt: clean here, and an include of
	# a floor above planted in a copy of the tree is caught
	hits=$(python3 tools/layers.py 2>&1) || bad "includes against the floors (tools/layers.py):
$hits"
	mkdir -p "$T/src" && cp -r src/core src/sysio "$T/src/" &&
		sed -i 's/^#include "base\/section.h"$/&\n#include "thread\/lifecycle.h"/' "$T/src/core/sync/spin.c"
	hits=$(python3 tools/layers.py src/core/layers.txt "$T/src" 2>&1)
	case $hits in
	*'spin.c: includes thread/lifecycle.h, a floor above'*) ;;
	*) bad "an include of a floor above planted in spin.c is not caught: $hits" ;;
	esac
	incl="$incl; the core's floors hold (src/core/layers.txt; a planted upward include caught)"
else
	incl="SKIP: the include check (no python3)"
fi
[ $st = 0 ] && echo "PASS: stubs and members open no sections and write no descriptor fields; cancellation-point waits use GREEN_CP_WAIT; io.h and sysio.h stay inside src/sysio/; __syscall_cp.c is $n lines; every .c and .S of src/ is in an include.am, and src/include.am lists them by directory, sorted; $incl"
exit $st
