#!/bin/sh
# race.sh — green-cc --race, the data-race detector (docs/race.md).
#
# Racy programs of tests/race/ (an unprotected counter, data behind a
# relaxed flag, a use after free across threads, a heap block, C++
# std::thread) must each give exactly one report naming both functions,
# the threads and the variable, and exit with status 66; race-free ones
# (mutex, rwlock, spin, condition variable, semaphore, barrier, atomics
# with fences, once, C11 threads, a thread pool) and real programs the
# project builds (tests/cxx/prodcons.cc, tests/prog/manythreads.c, the
# Check suites of the synchronisation objects) must
# give none and exit 0; in both stack modes.  A race found by
# green-explore under a GREEN_SCHED seed replays with the same report;
# a suppressions file silences a report and its exit status.
. "$GREEN_SRC/tests/lib.sh"
R=$S/tests/race

if [ -n "$GREEN_RUN" ] || [ ! -f "$B/lib/green/race.o" ]; then
	echo "SKIP: green-cc --race (the detector is x86_64-only, native builds)"
	exit 77
fi
scratch race
timeout_of 300

CFLAGS="-std=gnu11 -O1 -g -Wall -Wno-unused-parameter"
build() {   # build NAME COMPILER SOURCE [flags...]
	n=$1 cc=$2 src=$3
	shift 3
	if ! "$B/bin/$cc" --race $CFLAGS "$@" -o "$T/$n" "$src" 2>"$T/$n.cc"; then
		fail "$n: does not build with $cc --race"
		cat "$T/$n.cc"
		return 1
	fi
}

# run NAME MODE [env...]: output in $T/out, status in $st
run() {
	n=$1 mode=$2
	shift 2
	args=
	[ "$n" = manythreads ] && args="300 $mode"
	$TO env GREEN_STACKS="$mode" "$@" "$T/$n" $args >"$T/stdout" 2>"$T/out"
	st=$?
}

# racy NAME MODE: exactly one report with each of the PATTERNS (grep -E,
# one per argument after --) and exit status 66
racy() {
	n=$1 mode=$2
	shift 3
	run "$n" "$mode"
	count=$(grep -c '^WARNING: data race' "$T/out")
	missing=
	for p do
		grep -Eq -- "$p" "$T/out" || missing="$missing [$p]"
	done
	if [ "$st" = 66 ] && [ "$count" = 1 ] && [ -z "$missing" ] &&
	   grep -q '^SUMMARY: green --race: data race in ' "$T/out"; then
		pass "$n ($mode): one report, both stacks, exit 66"
	else
		fail "$n ($mode): exit $st, $count reports, missing:$missing"
		cat "$T/out"
	fi
}

quiet() {   # quiet NAME MODE: no report, exit 0
	n=$1 mode=$2
	run "$n" "$mode"
	if [ "$st" = 0 ] && ! grep -q 'data race' "$T/out"; then
		pass "$n ($mode): no report"
	else
		fail "$n ($mode): exit $st"
		head -60 "$T/out"
	fi
}

# the report's two access stacks: the current one, then "Previous"
now() { printf '  %s of size %s at 0x[0-9a-f]+ by thread [0-9]+%s:\n    #0 %s\\+' "$@"; }

for p in counter flag uaf heap mutex condvar sem barrier atomics pool; do
	build $p green-cc "$R/$p.c"
done
have_cxx=
if [ -x "$B/bin/green-c++" ] && [ -f "$B/lib/green/green-c++.specs" ]; then
	have_cxx=yes
	build thread green-c++ "$R/thread.cc" -std=gnu++17
	build prodcons green-c++ "$S/tests/cxx/prodcons.cc" -std=gnu++17 -I"$S/tests/cxx"
fi
build manythreads green-cc "$S/tests/prog/manythreads.c" -I"$S/tests"
# the project's own Check suites of the synchronisation objects, a real
# program of many threads and every primitive (the suites that rely on
# one CPU's semantics on purpose — spinners that read each other's
# counters, flags set by signal handlers — are left out)
RUNNER_SUITES="mutex cond rwlock barrier sem spin once c11 thread tsd cancel stdio tls pshared string errno"
have_runner=
if [ -f "$B/check/inst/lib/libcheck.a" ]; then
	if "$B/bin/green-cc" --race $CFLAGS -I"$S/tests" -I"$B/check/inst/include" -o "$T/runner" \
	   "$S/tests/runner.c" "$S"/tests/check_*.c "$B/check/inst/lib/libcheck.a" 2>"$T/runner.cc"; then
		have_runner=yes
	else
		fail "the Check runner does not build with --race"
		cat "$T/runner.cc"
	fi
fi

for mode in separate copied; do
	racy counter $mode -- \
		'(Read|Write) of size 4 at 0x[0-9a-f]+ by thread [23] "incr-[ab]":' \
		'^    #0 bump\+' '^    #1 incr\+' \
		'Previous write of size 4 at 0x[0-9a-f]+ by thread [23] "incr-[ab]":' \
		"Location is global 'counter' of size 4" \
		'Thread [23] "incr-[ab]" \((running|finished)\) created by thread 1 "counter" at:'
	racy flag $mode -- \
		'Read of size 4 at 0x[0-9a-f]+ by thread 1 "flag":' '^    #0 consume\+' \
		'Previous write of size 4 at 0x[0-9a-f]+ by thread 2 "producer":' '^    #0 publish\+' \
		"Location is global 'data' of size 4" 'SUMMARY: green --race: data race in consume$'
	racy uaf $mode -- \
		'Read of size 8 at 0x[0-9a-f]+ by thread 2 "late-reader":' '^    #0 use_job\+' \
		'Previous free of the block at 0x[0-9a-f]+ by thread 1 "uaf":' '^    #1 retire_job\+' \
		'Location is heap block of size 16 at 0x[0-9a-f]+ \(freed\) allocated by thread 1 "uaf":'
	racy heap $mode -- \
		'(Read|Write) of size 8 at 0x[0-9a-f]+ by thread [23]:' '^    #0 record_hit\+' \
		'Previous write of size 8 at 0x[0-9a-f]+ by thread [23]:' \
		'Location is heap block of size 40 at 0x[0-9a-f]+ allocated by thread 1 "heap":' \
		'^    #1 make_table\+' '^    #1 hitter\+'
	if [ -n "$have_cxx" ]; then
		racy thread $mode -- \
			'Read of size 8 at 0x[0-9a-f]+ by thread 3:' '^    #0 read_total\(\)\+' \
			'Previous write of size 8 at 0x[0-9a-f]+ by thread 2:' '^    #0 add_to_total\(long\)\+' \
			"Location is global 'total' of size 8" 'std::thread::_M_start_thread'
	fi
	for p in mutex condvar sem barrier atomics pool manythreads; do
		quiet $p $mode
	done
	[ -n "$have_cxx" ] && quiet prodcons $mode
	if [ -n "$have_runner" ]; then
		$TO env GREEN_STACKS=$mode CK_FORK=no "$T/runner" $RUNNER_SUITES >"$T/stdout" 2>"$T/out"
		st=$?
		if [ "$st" = 0 ] && ! grep -q 'data race' "$T/out" "$T/stdout" &&
		   grep -q '^100%: Checks: [0-9]*, Failures: 0, Errors: 0' "$T/stdout"; then
			pass "Check suites ($mode): $(grep '^100%' "$T/stdout"), no report"
		else
			fail "Check suites ($mode): exit $st"
			grep -v '^  ' "$T/stdout" | tail -5
			head -60 "$T/out"
		fi
	fi
done

# a race green-explore finds under a seed replays with the same report,
# schedule line included
out=$($TO "$B/bin/green-explore" -q -n 20 -- "$T/counter" 2>&1)
seed=$(printf '%s\n' "$out" | sed -n 's/^green-explore: seed \([0-9]*\),.*/\1/p')
if [ -z "$seed" ]; then
	fail "green-explore: no failing seed for counter: $out"
else
	run counter separate GREEN_SCHED=random:$seed
	cp "$T/out" "$T/first"
	run counter separate GREEN_SCHED=random:$seed
	if [ "$st" = 66 ] && cmp -s "$T/first" "$T/out" &&
	   grep -q "^  Schedule: GREEN_SCHED=random:$seed, at step [0-9]*, hash [0-9a-f]*" "$T/out"; then
		pass "counter: green-explore's seed $seed replays the same report"
	else
		fail "counter: seed $seed does not replay the same report (exit $st)"
		diff "$T/first" "$T/out"
	fi
fi

# suppressions: by function; the process then exits 0
printf '# the counter is statistics only\nrace:^bump$\n' >"$T/supp"
run counter separate GREEN_RACE_SUPPRESSIONS="$T/supp"
if [ "$st" = 0 ] && ! grep -q 'data race' "$T/out"; then
	pass "counter: suppressed by race:^bump\$, exit 0"
else
	fail "counter: not suppressed (exit $st)"
	cat "$T/out"
fi
printf 'race:no_such_function\n' >"$T/supp"
run counter separate GREEN_RACE_SUPPRESSIONS="$T/supp"
if [ "$st" = 66 ] && grep -q '^WARNING: data race' "$T/out"; then
	pass "counter: a suppression that matches nothing leaves the report"
else
	fail "counter: report lost with a non-matching suppression (exit $st)"
fi

# green-cc refuses --race where it cannot work
if "$B/bin/green-cc" --race --threads=1to1 -o "$T/x" "$R/counter.c" 2>"$T/err"; then
	fail "--race --threads=1to1 was accepted"
elif grep -q 'green threads only' "$T/err"; then
	pass "--race --threads=1to1 refused with a reason"
else
	fail "--race --threads=1to1: $(cat "$T/err")"
fi
finish
