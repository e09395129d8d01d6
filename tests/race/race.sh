#!/bin/sh
# race.sh — green-cc --race, the data-race detector (docs/race.md).
#
# Racy programs of tests/race/ (an unprotected counter, data behind a
# relaxed flag, a use after free across threads (in a small block, and
# deep in a large one), a heap block, C++
# std::thread, a byte of a struct whose granule the racing thread fills
# with other records, a race under a mutex, a write racing with a close,
# a free racing with a condition variable's signal, a barrier taken
# through dlopen) must each give exactly one report in ThreadSanitizer's
# words naming both stacks (with file and line), the threads, the
# variable and the locks held, and exit with status 66; race-free ones
# (mutex, rwlock, spin, condition variable, semaphore, barrier, atomics
# with fences, once, C11 threads, a thread pool, a hand-off through a
# pipe, ThreadSanitizer's annotations) and real programs the project
# builds (tests/cxx/prodcons.cc, tests/prog/manythreads.c, the Check
# suites of the synchronisation objects) must give none and exit 0; in
# both stack modes.  Thread leaks are reported at exit.  A race found by
# green-explore under a GREEN_SCHED seed replays with the same report;
# suppressions, TSAN_OPTIONS and __tsan_default_options do what they
# say; green-cc takes -fsanitize=thread for --race and an open -x; a
# program that allocates and frees blocks in turn keeps a small peak.
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

# expect NAME MODE KIND -- PATTERNS...: exactly one report of KIND ("data
# race", "heap-use-after-free", "thread leak") with each of the PATTERNS
# (grep -E, one per argument) and exit status 66
expect() {
	n=$1 mode=$2 kind=$3
	shift 4
	run "$n" "$mode"
	count=$(grep -c '^WARNING: ThreadSanitizer: ' "$T/out")
	missing=
	for p do
		grep -Eq -- "$p" "$T/out" || missing="$missing [$p]"
	done
	if [ "$st" = 66 ] && [ "$count" = 1 ] && [ -z "$missing" ] &&
	   grep -q "^WARNING: ThreadSanitizer: $kind (green --race)\$" "$T/out" &&
	   grep -q "^SUMMARY: ThreadSanitizer: $kind .* in " "$T/out"; then
		pass "$n ($mode): one $kind report, both stacks with file and line, exit 66"
	else
		fail "$n ($mode): exit $st, $count reports, missing:$missing"
		cat "$T/out"
	fi
}
racy() {
	n=$1 mode=$2
	shift 2
	expect "$n" "$mode" "data race" "$@"
}

quiet() {   # quiet NAME MODE: no report, exit 0
	n=$1 mode=$2
	run "$n" "$mode"
	if [ "$st" = 0 ] && ! grep -q 'ThreadSanitizer' "$T/out"; then
		pass "$n ($mode): no report"
	else
		fail "$n ($mode): exit $st"
		head -60 "$T/out"
	fi
}

# a frame: #N FUNCTION FILE:LINE (PROGRAM+0xADDRESS)
at() { printf '^    #%s %s [^ ]*/%s:%s \\(%s\\+0x[0-9a-f]+\\)$' "$1" "$2" "$3" "$4" "$5"; }

for p in counter flag uaf uafbig heap mutex condvar sem barrier atomics pool evict lockset fdclose \
	 pipesync destroy leak dlbarrier options; do
	build $p green-cc "$R/$p.c"
done
build annotate green-cc "$R/annotate.c" --param=tsan-distinguish-volatile=1
build annotate-not green-cc "$R/annotate.c" -DNO_ANNOTATIONS
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
	   "$S/tests/unit/runner.c" "$S"/tests/unit/check_*.c "$B/check/inst/lib/libcheck.a" 2>"$T/runner.cc"; then
		have_runner=yes
	else
		fail "the Check runner does not build with --race"
		cat "$T/runner.cc"
	fi
fi

for mode in separate copied; do
	racy counter $mode -- \
		'^  (Read|Write) of size 4 at 0x[0-9a-f]+ by thread T[12]:$' \
		"$(at 0 bump counter.c 12 counter)" "$(at 1 incr counter.c 19 counter)" \
		'^  Previous write of size 4 at 0x[0-9a-f]+ by thread T[12]:$' \
		"^  Location is global 'counter' of size 4 at 0x[0-9a-f]+ \\(counter\\+0x[0-9a-f]+\\)\$" \
		"^  Thread T[12] 'incr-[ab]' \\(tid=[23], (running|finished)\\) created by main thread at:\$" \
		'^    #0 pthread_create ' "$(at 1 main counter.c 2[79] counter)" \
		'^SUMMARY: ThreadSanitizer: data race [^ ]*/counter.c:12 in bump$'
	racy flag $mode -- \
		'^  Read of size 4 at 0x[0-9a-f]+ by main thread:$' "$(at 0 consume flag.c 22 flag)" \
		'^  Previous write of size 4 at 0x[0-9a-f]+ by thread T1:$' "$(at 0 publish flag.c 15 flag)" \
		"Location is global 'data' of size 4" 'SUMMARY: ThreadSanitizer: data race .*/flag.c:22 in consume$'
	expect uaf $mode heap-use-after-free -- \
		'^  Read of size 8 at 0x[0-9a-f]+ by thread T1:$' "$(at 0 use_job uaf.c 17 uaf)" \
		'^  Previous write of size 8 at 0x[0-9a-f]+ by main thread:$' '^    #0 free ' \
		"$(at 1 retire_job uaf.c 30 uaf)" \
		'^  Location is heap block of size 16 at 0x[0-9a-f]+ allocated by main thread:$' \
		'^    #0 malloc ' "$(at 1 main uaf.c 37 uaf)" "^  Thread T1 'late-reader' "
	expect uafbig $mode heap-use-after-free -- \
		'^  Read of size 8 at 0x[0-9a-f]+ by thread T1:$' "$(at 0 use_job uafbig.c 21 uafbig)" \
		'^  Previous write of size 8 at 0x[0-9a-f]+ by main thread:$' '^    #0 free ' \
		"$(at 1 main uafbig.c 37 uafbig)" \
		'^  Location is heap block of size 65536 at 0x[0-9a-f]+ allocated by main thread:$'
	racy heap $mode -- \
		'^  (Read|Write) of size 8 at 0x[0-9a-f]+ by thread T[12]:$' "$(at 0 record_hit heap.c 19 heap)" \
		'^  Previous write of size 8 at 0x[0-9a-f]+ by thread T[12]:$' \
		'^  Location is heap block of size 40 at 0x[0-9a-f]+ allocated by main thread:$' \
		'^    #0 calloc ' "$(at 1 make_table heap.c 12 heap)" "$(at 1 hitter heap.c 24 heap)"
	if [ -n "$have_cxx" ]; then
		racy thread $mode -- \
			'^  Read of size 8 at 0x[0-9a-f]+ by thread T2:$' "$(at 0 'read_total\(\)' thread.cc 17 thread)" \
			'^  Previous write of size 8 at 0x[0-9a-f]+ by thread T1:$' \
			"$(at 0 'add_to_total\(long\)' thread.cc 12 thread)" \
			"Location is global 'total' of size 8" 'std::thread::_M_start_thread'
	fi
	# a read of one byte stays recorded while its thread fills the
	# granule with other records (an eviction lost it once)
	racy evict $mode -- \
		'^  Write of size 1 at 0x[0-9a-f]+ by thread T1:$' "$(at 0 setter evict.c 13 evict)" \
		'^  Previous read of size 1 at 0x[0-9a-f]+ by main thread:$' "$(at 0 main evict.c 25 evict)" \
		'^  Location is stack of main thread\.$'
	racy lockset $mode -- \
		'^  Write of size 8 at 0x[0-9a-f]+ by thread T1 \(mutexes: write M0\):$' \
		"$(at 0 adder lockset.c 13 lockset)" \
		'^  Previous read of size 8 at 0x[0-9a-f]+ by main thread:$' \
		'^  Mutex M0 \(0x[0-9a-f]+\) created at:$' '^    #0 pthread_mutex_init ' \
		"$(at 1 main lockset.c 22 lockset)"
	racy fdclose $mode -- \
		'^  Write of size 8 at 0x[0-9a-f]+ by thread T2:$' '^    #0 close ' \
		"$(at 1 closer fdclose.c 18 fdclose)" \
		'^  Previous read of size 8 at 0x[0-9a-f]+ by thread T1:$' '^    #0 write ' \
		"$(at 1 writer fdclose.c 12 fdclose)" \
		'^  Location is file descriptor [0-9]+ created by main thread at:$' '^    #0 pipe ' \
		"$(at 1 main fdclose.c 26 fdclose)"
	racy destroy $mode -- \
		'^  Write of size 8 at 0x[0-9a-f]+ by main thread:$' '^    #0 free ' \
		"$(at 1 main destroy.c 30 destroy)" \
		'^  Previous read of size 8 at 0x[0-9a-f]+ by thread T1:$' '^    #0 pthread_cond_signal ' \
		"$(at 1 signaller destroy.c 16 destroy)" \
		'^  Location is heap block of size [0-9]+ at 0x[0-9a-f]+ allocated by main thread:$'
	racy dlbarrier $mode -- \
		"$(at 0 second dlbarrier.c 16 dlbarrier)" "$(at 0 main dlbarrier.c 30 dlbarrier)"
	expect leak $mode "thread leak" -- \
		"^  Thread T[123] \\(tid=[0-9]+, finished\\) created by main thread at:\$" \
		'^    #0 pthread_create ' "$(at 1 start_three leak.c 15 leak)" \
		'^  And 2 more similar thread leaks\.$' \
		'^SUMMARY: ThreadSanitizer: thread leak [^ ]*/leak.c:15 in start_three$'
	for p in mutex condvar sem barrier atomics pool pipesync manythreads; do
		quiet $p $mode
	done
	[ -n "$have_cxx" ] && quiet prodcons $mode
	if [ -n "$have_runner" ]; then
		# (check_barrier.c's destroy while a woken waiter leaves its
		# wait is a race in ThreadSanitizer's model, on purpose)
		$TO env GREEN_STACKS=$mode CK_FORK=no CK_EXCLUDE_TAGS=destroy-while-leaving \
			"$T/runner" $RUNNER_SUITES >"$T/stdout" 2>"$T/out"
		st=$?
		if [ "$st" = 0 ] && ! grep -q 'ThreadSanitizer' "$T/out" "$T/stdout" &&
		   grep -q '^100%: Checks: [0-9]*, Failures: 0, Errors: 0' "$T/stdout"; then
			pass "Check suites ($mode): $(grep '^100%' "$T/stdout"), no report"
		else
			fail "Check suites ($mode): exit $st"
			grep -v '^  ' "$T/stdout" | tail -5
			head -60 "$T/out"
		fi
	fi
done

# the eviction case in plain runs and under seeds: reported every time
hits=0
for s in "" random:1 random:2 random:3 random:4 pct:1 pct:2 pct:3 pct:4 pct:5; do
	run evict separate ${s:+GREEN_SCHED=$s}
	[ "$st" = 66 ] && grep -q '^  Previous [a-z]* of size 1 ' "$T/out" && hits=$((hits + 1))
done
if [ $hits = 10 ]; then
	pass "evict: reported in 10 of 10 runs (plain and seeded)"
else
	fail "evict: reported in $hits of 10 runs"
fi

# annotations: none of the three races reported, and the program's own
# volatile hook counts its one volatile read; without them, three reports
run annotate separate
if [ "$st" = 0 ] && ! grep -q ThreadSanitizer "$T/out" && grep -qx '2 7 2 0 1' "$T/stdout"; then
	pass "annotate: benign race, happens-before, __tsan_mutex_*, own volatile hook: no report"
else
	fail "annotate: exit $st, output $(cat "$T/stdout")"
	cat "$T/out"
fi
run annotate-not separate
k=$(grep -c '^WARNING: ThreadSanitizer: data race' "$T/out")
if [ "$st" = 66 ] && [ "$k" = 3 ]; then
	pass "annotate without the annotations: the 3 races reported"
else
	fail "annotate without the annotations: exit $st, $k reports"
fi

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

# suppressions, by function and by file; the process then exits 0
for supp in 'race:^bump$' 'race:counter.c'; do
	printf '# the counter is statistics only\n%s\n' "$supp" >"$T/supp"
	for how in GREEN_RACE_SUPPRESSIONS="$T/supp" TSAN_OPTIONS="suppressions=$T/supp"; do
		run counter separate "$how"
		if [ "$st" = 0 ] && ! grep -q 'ThreadSanitizer' "$T/out"; then
			pass "counter: suppressed by $supp (${how%%=*}), exit 0"
		else
			fail "counter: not suppressed by $supp (${how%%=*}, exit $st)"
			cat "$T/out"
		fi
	done
done
printf 'race:no_such_function\n' >"$T/supp"
run counter separate GREEN_RACE_SUPPRESSIONS="$T/supp"
if [ "$st" = 66 ] && grep -q '^WARNING: ThreadSanitizer: data race' "$T/out"; then
	pass "counter: a suppression that matches nothing leaves the report"
else
	fail "counter: report lost with a non-matching suppression (exit $st)"
fi
printf 'thread:start_three\n' >"$T/supp"
run leak separate TSAN_OPTIONS="suppressions=$T/supp"
if [ "$st" = 0 ] && ! grep -q ThreadSanitizer "$T/out"; then
	pass "leak: suppressed by thread:start_three"
else
	fail "leak: not suppressed by thread:start_three (exit $st)"
fi

# options: the program's __tsan_default_options (exitcode=7), TSAN_OPTIONS
# over it, halt_on_error, report_bugs, report_thread_leaks, an unknown one
opt() {   # opt WHAT STATUS REPORTS PROGRAM [env...]
	w=$1 want=$2 reports=$3 prog=$4
	shift 4
	run "$prog" separate "$@"
	k=$(grep -c '^WARNING: ThreadSanitizer' "$T/out")
	if [ "$st" = "$want" ] && [ "$k" = "$reports" ]; then
		pass "$w: exit $st, $k reports"
	else
		fail "$w: exit $st (want $want), $k reports (want $reports)"
		cat "$T/out"
	fi
}
opt "__tsan_default_options exitcode=7" 7 2 options
opt "TSAN_OPTIONS=exitcode=9 over it" 9 2 options TSAN_OPTIONS="exitcode=9"
opt "halt_on_error=1" 7 1 options TSAN_OPTIONS="halt_on_error=1"
opt "report_bugs=0" 0 0 options TSAN_OPTIONS="report_bugs=0"
opt "report_thread_leaks=0" 0 0 leak TSAN_OPTIONS="report_thread_leaks=0"
run options separate TSAN_OPTIONS="no_such_option=1"
if grep -q "TSAN_OPTIONS: unknown option 'no_such_option'" "$T/out"; then
	pass "an unknown TSAN_OPTIONS name is reported"
else
	fail "an unknown TSAN_OPTIONS name is not reported"
fi

# memory: 64 KiB and 16 MiB blocks allocated, filled and freed in turn;
# the peak follows the live block (before the quarantine was bounded by
# the live heap and freed shadow released: 164 MB and 295 MB)
build churn green-cc "$R/churn.c"
for case in "65536 400 16384" "16777216 12 98304"; do
	set -- $case
	if command -v /usr/bin/time >/dev/null 2>&1; then
		/usr/bin/time -f '%M' -o "$T/rss" "$T/churn" "$1" "$2" >/dev/null 2>"$T/out"
		st=$? kb=$(tail -1 "$T/rss")
		if [ "$st" = 0 ] && [ "$kb" -lt "$3" ]; then
			pass "churn $1-byte blocks: peak $kb KiB (< $3)"
		else
			fail "churn $1-byte blocks: exit $st, peak $kb KiB (want < $3)"
		fi
	fi
done

# green-cc: -fsanitize=thread is --race; an -x left open does not reach
# the detector's object
if "$B/bin/green-cc" -fsanitize=thread $CFLAGS -o "$T/fsan" "$R/counter.c" 2>"$T/err" &&
   run fsan separate && [ "$st" = 66 ]; then
	pass "green-cc -fsanitize=thread builds a --race program"
else
	fail "green-cc -fsanitize=thread: exit $st: $(head -3 "$T/err")"
fi
if [ -n "$have_cxx" ]; then
	if "$B/bin/green-c++" --race -fsanitize=thread -O1 -g -o "$T/xcxx" -x c++ "$R/lockset.c" \
	   2>"$T/err" && run xcxx separate && [ "$st" = 66 ]; then
		pass "green-c++ --race -fsanitize=thread -x c++ (left open) builds"
	else
		fail "green-c++ --race -x c++: $(head -3 "$T/err")"
	fi
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
