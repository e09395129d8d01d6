#!/usr/bin/env bash
# realprogs.sh — real programs' own test suites against green, with
# separate and with copied stacks, beside the same suites on glibc.
# Not part of `make check` (it takes a quarter of an hour or more).
#
#   tests/real/realprogs.sh BUILDDIR [PROGRAM...]
#
# PROGRAM: libevent, libuv, memcached (default: these three), gawk,
# abseil.  Each is fetched as a Debian source package into
# BUILDDIR/realprogs at run time (apt-get source, deb-src enabled by
# tools/debsrc.sh; nothing is kept in this tree), built twice — with
# BUILDDIR's green-cc (or green-c++) and with the host's cc (c++) on
# glibc — and its own suite run three times: glibc, then green with
# GREEN_STACKS=separate, then GREEN_STACKS=copied, each under a timeout;
# abseil a fourth, `1ms`: separate stacks time-sliced at
# GREEN_QUANTUM_MS=1.
#
#   libevent   test/regress (its regression suite): tests passed
#   libuv      uv_run_tests_a (its whole suite, built with cmake): the
#              TAP lines "ok" (skips included) of the tests run
#   memcached  `prove t` (its perl suite, against memcached-debug, with
#              extstore), linked against this script's own libevent
#              build of the same kind: test files passed
#   gawk       `make -C test check` (its suite): the tests that passed of
#              the tests it ran.  Built dynamically
#              (RP_LINK=dynamic) it loads its extensions (filefuncs,
#              readdir, fork, rwarray, inplace, time, testext...) with
#              dlopen, and its suite runs their tests; statically linked
#              it builds none and skips those.
#   abseil     the googletest programs of its synchronisation and its
#              base thread code (ABSL_TESTS below: absl::Mutex, CondVar,
#              Notification, Barrier, SpinLock and the thread ids, which
#              wait on raw futexes: docs/kernel.md), built with cmake
#              against Debian's googletest source: test cases passed
#
# Prints one line per program and mode with the count passed of the count
# run, and the names of what failed; exits 0 only if, for every program,
# copied stacks pass as many as separate stacks (and, for abseil, every
# green mode as many as glibc).  Exit 77 (skipped) when a source package
# cannot be fetched or a tool is missing.
#
# Environment:
#   RP_TIMEOUT  seconds a run of one suite (of one abseil program) may take (1800)
#   RP_MODES    the modes to run (default "glibc separate copied", and
#               for abseil "glibc separate copied 1ms")
#   RP_BUILD_ONLY  if set, libuv's suite is built for the modes, not run
#               (bench/realtimes.sh times one of its tests)
#   RP_LINK     static (default) or dynamic: how green-cc links the
#               programs (dynamic: green-cc --dynamic, against green's
#               libc.so, in trees of their own: docs/dynamic.md; abseil
#               is linked statically whatever it says)
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: tests/real/realprogs.sh BUILDDIR [libevent|libuv|memcached|abseil]..." >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
shift
progs=${*:-libevent libuv memcached}
cc=$build/bin/green-cc
[ -x "$cc" ] || { echo "realprogs.sh: no $cc (build first)" >&2; exit 2; }
modes=${RP_MODES:-glibc separate copied}
abseil_modes=${RP_MODES:-glibc separate copied 1ms}
to=${RP_TIMEOUT:-1800}
. "$here/tools/debsrc.sh"

top=$build/realprogs
mkdir -p "$top"
need() {
	command -v "$1" >/dev/null 2>&1 || { echo "SKIP: realprogs.sh needs $1"; exit 77; }
}
# fetch PACKAGE DIR: the unpacked source at $top/DIR, or skip
fetch() {
	[ -d "$top/$2" ] && return 0
	(fetch_source "$1" "$top/$2") || { echo "SKIP: apt-get source $1 failed (network or deb-src)"; exit 77; }
}
# tree DIR KIND: a copy of the pristine source to build for KIND (green|glibc)
tree() {
	local d=$top/build-$2/$1
	if [ ! -d "$d" ]; then
		mkdir -p "$top/build-$2"
		cp -a "$top/$1" "$d"
	fi
	echo "$d"
}
case ${RP_LINK:-static} in
static) gkind=green ;;
dynamic) gkind=green-dynamic ;;
*) echo "realprogs.sh: RP_LINK is static or dynamic" >&2; exit 2 ;;
esac
# compiler KIND: the command; compiler_file KIND: its file, for make-like
# date comparisons
compiler() {
	case $1 in
	green) echo "$cc" ;;
	green-dynamic) echo "$cc --dynamic" ;;
	*) echo "${CC:-cc}" ;;
	esac
}
compiler_file() { case $1 in green*) echo "$cc" ;; *) command -v "${CC:-cc}" ;; esac; }
kind_of() { [ "$1" = glibc ] && echo glibc || echo $gkind; }
cxx_compiler() { case $1 in green*) echo "$build/bin/green-c++" ;; *) echo "${CXX:-c++}" ;; esac; }
# run MODE LOG CMD...: the suite's command in MODE under the timeout, as
# $runas (a command prefix) if set
runas=
run() {
	local mode=$1 log=$2
	shift 2
	case $mode in
	glibc) timeout "$to" $runas "$@" >"$log" 2>&1 ;;
	1ms) GREEN_STACKS=separate GREEN_QUANTUM_MS=1 timeout "$to" $runas "$@" >"$log" 2>&1 ;;
	*) GREEN_STACKS=$mode timeout "$to" $runas "$@" >"$log" 2>&1 ;;
	esac
}
# report PROG MODE PASSED RUN RC FAILED...
declare -A passed
report() {
	local p=$1 m=$2 ok=$3 n=$4 rc=$5
	shift 5
	local note=
	[ "$rc" = 124 ] && note=" (timed out after $to s)"
	echo "$p $m: $ok of $n passed$note"
	for f in "$@"; do echo "    failed: $f"; done
	passed[$p.$m]=$ok
}
mk() { make -C "$1" ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true "${@:2}"; }

# ---- libevent: test/regress
libevent_build() {   # KIND: builds, installs into $top/prefix-KIND
	local d
	d=$(tree libevent-2.1.12-stable "$1")
	[ -x "$d/test/regress" ] && [ "$(compiler_file "$1")" -ot "$d/test/regress" ] && return 0
	say "building libevent ($1)"
	# dpkg-source's patches leave the autotools inputs newer than their
	# outputs, which must not be remade
	(cd "$d" && ./configure -q CC="$(compiler "$1")" --disable-shared --disable-openssl \
		--prefix="$top/prefix-$1") >"$d/rp-configure.log" 2>&1 &&
	{ mk "$d" -j2 && mk "$d" test/regress && mk "$d" install; } >"$d/rp-make.log" 2>&1 ||
		{ echo "realprogs.sh: building libevent ($1) failed, see $d/rp-*.log" >&2; return 1; }
}
libevent_suite() {
	local m d log sum rc
	fetch libevent libevent-2.1.12-stable
	for m in $modes; do
		libevent_build "$(kind_of "$m")" || return 1
		d=$top/build-$(kind_of "$m")/libevent-2.1.12-stable
		log=$top/libevent.$m.log
		say "libevent regress ($m)"
		(cd "$d" && run "$m" "$log" test/regress)
		rc=$?
		# "All N tests ok", "N tests ok.  (S skipped)" or "F/N TESTS FAILED"
		sum=$(grep -E '^(All [0-9]+ tests ok|[0-9]+ tests ok|[0-9]+/[0-9]+ TESTS FAILED)' "$log" | tail -1)
		local ok n
		case $sum in
		*/*) n=$(echo "$sum" | grep -oE '^[0-9]+/[0-9]+' | cut -d/ -f2)
		     ok=$((n - $(echo "$sum" | grep -oE '^[0-9]+'))) ;;
		*ok*) ok=$(echo "$sum" | grep -oE '[0-9]+' | head -1); n=$ok ;;
		*) ok=0 n='?' ;;
		esac
		# the tests whose last run did not pass (the suite retries some)
		mapfile -t f < <(awk '/^[^ ]+\/[^ ]+: / { last[$1] = $0 }
			END { for (t in last) if (last[t] !~ /(OK|SKIPPED|DISABLED) *$/) print last[t] }' "$log" | sort)
		report libevent "$m" "$ok" "$n" "$rc" "${f[@]}"
	done
}

# ---- libuv: uv_run_tests_a
libuv_suite() {
	local m d b log rc
	need cmake
	fetch libuv1 libuv1-1.44.2
	for m in $modes; do
		d=$(tree libuv1-1.44.2 "$(kind_of "$m")")
		b=$d/rp-build
		if [ ! -x "$b/uv_run_tests_a" ] || [ "$(compiler_file "$(kind_of "$m")")" -nt "$b/uv_run_tests_a" ]; then
			say "building libuv and its suite ($(kind_of "$m"))"
			# (cmake wants the compiler's file, and its options apart)
			{ cmake -S "$d" -B "$b" -DCMAKE_C_COMPILER="$(compiler_file "$(kind_of "$m")")" \
				-DCMAKE_C_FLAGS="$(compiler "$(kind_of "$m")" | cut -s -d' ' -f2-)" \
				-DLIBUV_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
			  cmake --build "$b" -j2 --target uv_run_tests_a; } >"$d/rp-build.log" 2>&1 ||
				{ echo "realprogs.sh: building libuv failed, see $d/rp-build.log" >&2; return 1; }
		fi
		[ -n "${RP_BUILD_ONLY:-}" ] && continue
		log=$top/libuv.$m.log
		say "libuv uv_run_tests_a ($m)"
		# it refuses to run as root: then as nobody, in a tree of its own
		if [ "$(id -u)" = 0 ]; then
			need setpriv
			chown -R 65534:65534 "$d"
			runas="setpriv --reuid=65534 --regid=65534 --clear-groups"
		fi
		# the suite finds its fixtures relative to the working directory
		(cd "$d" && run "$m" "$log" "$b/uv_run_tests_a")
		rc=$?
		runas=
		mapfile -t f < <(sed -n 's/^not ok [0-9]* - //p' "$log")
		report libuv "$m" "$(grep -c '^ok ' "$log")" "$(grep -cE '^(not )?ok ' "$log")" "$rc" "${f[@]}"
	done
}

# ---- memcached: prove t
memcached_suite() {
	local m k d log rc
	need prove
	fetch libevent libevent-2.1.12-stable
	fetch memcached memcached-1.6.18
	for m in $modes; do
		k=$(kind_of "$m")
		libevent_build "$k" || return 1
		d=$(tree memcached-1.6.18 "$k")
		if [ ! -x "$d/memcached-debug" ] || [ "$(compiler_file "$k")" -nt "$d/memcached-debug" ]; then
			say "building memcached ($k)"
			(cd "$d" && ./configure -q CC="$(compiler "$k")" --with-libevent="$top/prefix-$k" \
				--enable-extstore) >"$d/rp-configure.log" 2>&1 &&
			mk "$d" -j2 memcached memcached-debug sizes timedrun testapp >"$d/rp-make.log" 2>&1 ||
				{ echo "realprogs.sh: building memcached ($k) failed, see $d/rp-*.log" >&2; return 1; }
		fi
		log=$top/memcached.$m.log
		say "memcached prove t ($m)"
		(cd "$d" && run "$m" "$log" prove --timer t)
		rc=$?
		local files ok
		files=$(ls "$d"/t/*.t | wc -l)
		mapfile -t f < <(grep -E '^(\[[0-9:]+\] )?t/[^ ]+\.t +\(Wstat|^(\[[0-9:]+\] )?t/[^ ]+\.t \.+ *(Failed|Dubious)' "$log" |
			sed 's/^\[[0-9:]*\] //; s/ .*//' | sort -u)
		ok=$((files - ${#f[@]}))
		[ "$rc" = 124 ] && ok=$(grep -cE '^(\[[0-9:]+\] )?t/[^ ]+\.t \.+ ok' "$log")
		report memcached "$m" "$ok" "$files" "$rc" "${f[@]}"
	done
}

# ---- gawk: make -C test check
gawk_suite() {
	local m k d log rc n f
	fetch gawk gawk-5.2.1
	for m in $modes; do
		k=$(kind_of "$m")
		d=$(tree gawk-5.2.1 "$k")
		if [ ! -x "$d/gawk" ] || [ "$(compiler_file "$k")" -nt "$d/gawk" ]; then
			say "building gawk ($k)"
			# (doc/ needs gawktexi.in, which Debian's source leaves out)
			(cd "$d" && ./configure -q CC="$(compiler "$k")") >"$d/rp-configure.log" 2>&1 &&
			{ mk "$d" -j2 -k || [ -x "$d/gawk" ]; } >"$d/rp-make.log" 2>&1 ||
				{ echo "realprogs.sh: building gawk ($k) failed, see $d/rp-*.log" >&2; return 1; }
		fi
		log=$top/gawk.$m.log
		say "gawk make check ($m)"
		run "$m" "$log" make -C "$d/test" check
		rc=$?
		# the tests run: the log's lines that are a test's name alone
		n=$(ls "$d"/test/*.ok | sed 's|.*/||; s|\.ok$||' | grep -Fxf - "$log" | sort -u | wc -l)
		mapfile -t f < <(sed -n 's/^============== _\(.*\) =============$/\1/p' "$log")
		report gawk "$m" "$((n - ${#f[@]}))" "$n" "$rc" "${f[@]}"
	done
}

# ---- abseil: the googletest programs of its synchronisation and base
# thread code, built against Debian's googletest source
ABSL_TESTS="barrier_test blocking_counter_test graphcycles_test mutex_test notification_test
	per_thread_sem_test lifetime_test spinlock_test call_once_test sysinfo_test
	low_level_alloc_test thread_identity_test cmake_thread_test"
abseil_build() {   # KIND: builds the programs into $top/build-KIND/abseil-.../rp-build/bin
	local d b t targets=
	need cmake
	d=$(tree abseil-20220623.1 "$1")
	b=$d/rp-build
	for t in $ABSL_TESTS; do targets="$targets absl_$t"; done
	for t in $ABSL_TESTS; do
		[ -x "$b/bin/absl_$t" ] && [ "$(cxx_compiler "$1")" -ot "$b/bin/absl_$t" ] && continue
		say "building abseil's tests ($1)"
		# cmake does not know the libc: relink every program against it
		rm -f "$b"/bin/absl_*
		{ cmake -S "$d" -B "$b" -DCMAKE_CXX_COMPILER="$(cxx_compiler "$1")" \
			-DCMAKE_C_COMPILER="$(compiler "$1")" -DCMAKE_CXX_STANDARD=17 \
			-DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=ON -DABSL_BUILD_TESTING=ON \
			-DABSL_USE_GOOGLETEST_HEAD=OFF -DABSL_LOCAL_GOOGLETEST_DIR="$top/googletest-1.12.1" &&
		  cmake --build "$b" -j2 --target $targets; } >"$d/rp-build.log" 2>&1 ||
			{ echo "realprogs.sh: building abseil ($1) failed, see $d/rp-build.log" >&2; return 1; }
		return 0
	done
}
abseil_suite() {
	local m k b log rc t ok n tok tn f
	fetch abseil abseil-20220623.1
	fetch googletest googletest-1.12.1
	for m in $abseil_modes; do
		k=$(kind_of "$m")
		[ "$k" = glibc ] || k=green   # linked statically (RP_LINK above)
		abseil_build "$k" || return 1
		b=$top/build-$k/abseil-20220623.1/rp-build/bin
		ok=0 n=0 rc=0 f=()
		for t in $ABSL_TESTS; do
			log=$top/abseil.$t.$m.log
			say "abseil $t ($m)"
			run "$m" "$log" "$b/absl_$t"
			case $? in 0) ;; 124) rc=124 ;; *) [ "$rc" = 124 ] || rc=1 ;; esac
			# "[==========] Running N tests", one "[       OK ]" per case passed
			tn=$(sed -n 's/^\[==========\] Running \([0-9]*\) tests\{0,1\} .*/\1/p' "$log" | head -1)
			tok=$(grep -c '^\[       OK \]' "$log")
			ok=$((ok + tok)) n=$((n + ${tn:-0}))
			mapfile -t -O "${#f[@]}" f < <(sed -n 's/^\[  FAILED  \] \([^ ]*\) (.*/'"$t"': \1/p' "$log")
			# a case that never ended: its RUN line is the last
			if [ "$(grep -E '^\[ +(RUN|OK|FAILED) +\]' "$log" | tail -1 | cut -c1-12)" = '[ RUN      ]' ]; then
				f+=("$t: $(grep '^\[ RUN      \]' "$log" | tail -1 | sed 's/^\[ RUN      \] //') (did not end)")
			fi
		done
		report abseil "$m" "$ok" "$n" "$rc" "${f[@]}"
	done
}

st=0
for p in $progs; do
	case $p in
	libevent|libuv|memcached|gawk|abseil) "${p}_suite" || st=1 ;;
	*) echo "realprogs.sh: unknown program $p" >&2; exit 2 ;;
	esac
	[ -z "${RP_BUILD_ONLY:-}" ] || continue
	case " $modes " in
	*" separate "*" copied "*)
		[ "${passed[$p.separate]:-x}" = "${passed[$p.copied]:-y}" ] || st=1 ;;
	esac
	if [ "$p" = abseil ]; then
		for m in $abseil_modes; do
			[ "${passed[abseil.$m]:-x}" = "${passed[abseil.glibc]:-${passed[abseil.$m]:-x}}" ] || st=1
		done
	fi
done
exit $st
