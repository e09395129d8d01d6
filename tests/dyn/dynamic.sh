#!/bin/sh
# dynamic.sh — dynamic green (docs/dynamic.md): shared objects, dlopen
# with thread-local storage per green thread, position-independent
# executables, the thread model chosen at run time.
#
# - The TLS of a loaded object (tests/dyn/): alignment (tlsalign), first
#   values (tlsinit) and DTVs grown for threads that exist at the load
#   (newdtv), our equivalents of libc-test's tls_align_dlopen,
#   tls_init_dlopen and tls_get_new-dtv (libc-test is no Debian source
#   package); each passes built against glibc, which is the yardstick,
#   and against green's libc.so in both modes, green's in both stack
#   modes.
# - A loaded object's __thread counter used by 1,000 threads, half
#   created before the dlopen (counter), in both stack modes, with and
#   without a TLS segment of the program's own (both TCB modes), and
#   under valgrind.
# - dladdr, dl_iterate_phdr, dlsym, dlclose; dlopen of an object built
#   for glibc answers NULL, dlerror saying why (dlfuncs).
# - green-run: one binary on green threads and on kernel threads; an
#   unchanged musl-gcc program (when musl-tools is installed) on green's
#   loader; glibc and static programs refused in one line.
# - A PIE's addresses differ between two runs, a dynamically linked one
#   and a static one (where); a seeded-schedule failure found in each
#   replays 10 of 10, through green-explore (randomisation off) and run
#   directly (the kernel's address randomisation on).
# - The race detector in a static PIE; green-cc's refusals: --race and
#   --sched-points=memory with --dynamic.
. "$GREEN_SRC/tests/lib.sh"
D=$B/tests/dyn
if [ -n "$GREEN_RUN" ] || [ ! -f "$B/lib/green/libc.so" ]; then
	echo "SKIP: dynamic green (green's libc.so is x86_64-only, native builds)"
	exit 77
fi
scratch dynamic
timeout_of 300

# run LABEL COMMAND...: the command exits 0 (output in $T/out)
run() {
	label=$1
	shift
	if $TO "$@" >"$T/out" 2>&1; then
		pass "$label"
	else
		fail "$label (status $?)"
		sed 's/^/    | /' "$T/out" | head -20
	fi
}

# ---- the TLS of loaded objects, as libc-test's three tests ask
for t in tlsalign tlsinit newdtv; do
	case $t in
	newdtv) a="newdtv1_dso newdtv2_dso" ;;
	*) a=${t}_dso ;;
	esac
	args= gargs=
	for o in $a; do args="$args $D/$o.so" gargs="$gargs $D/$o-glibc.so"; done
	run "$t: glibc (the yardstick)" "$D/$t-glibc" $gargs
	for mode in separate copied; do
		run "$t: green, $mode stacks" env GREEN_STACKS=$mode "$D/$t-green" $args
	done
	run "$t: 1:1" "$D/$t-1to1" $args
done

# ---- 1,000 threads, one loaded __thread counter each
for mode in separate copied; do
	run "counter: 1,000 threads, $mode stacks, threads share a TCB" \
		env GREEN_STACKS=$mode "$D/counter-green" "$D/counter_dso.so"
	run "counter: 1,000 threads, $mode stacks, a TCB each" \
		env GREEN_STACKS=$mode "$D/counter-tls-green" "$D/counter_dso.so"
done
run "counter: 1,000 threads, glibc" "$D/counter-glibc" "$D/counter_dso-glibc.so"
run "counter: 1,000 threads, 1:1" "$D/counter-1to1" "$D/counter_dso.so"
if [ -n "${VALGRIND:-}" ] && command -v "$VALGRIND" >/dev/null 2>&1; then
	for mode in separate copied; do
		for p in counter counter-tls; do
			run "counter under valgrind: $p, $mode stacks" env GREEN_STACKS=$mode \
				"$VALGRIND" -q --error-exitcode=99 "$D/$p-green" "$D/counter_dso.so"
		done
	done
else
	echo "SKIP: the counter under valgrind (no valgrind)"
fi

# ---- the other dl* calls, and an object built for glibc
run "dladdr, dl_iterate_phdr, dlsym, dlclose; a glibc object refused" \
	"$D/dlfuncs-green" "$D/counter_dso.so" "$D/counter_dso-glibc.so"
run "the same on the 1:1 libc.so" "$D/dlfuncs-1to1" "$D/counter_dso.so" "$D/counter_dso-glibc.so"

# ---- green-run: one binary, both thread models
# tests/prog/m1tid prints "same" when its threads share one kernel thread
tid=$B/tests/prog/m1tid-dyn
if [ -x "$tid" ]; then
	if [ "$("$B/bin/green-run" "$tid")" = same ] && [ "$("$tid")" = same ]; then
		pass "green-run: a dynamically linked green program on green threads"
	else
		fail "green-run: the program's threads are not on one kernel thread"
	fi
	if [ "$("$B/bin/green-run" --threads=1to1 "$tid")" = different ]; then
		pass "green-run --threads=1to1: the same binary on kernel threads"
	else
		fail "green-run --threads=1to1: the program's threads share a kernel thread"
	fi
fi
if command -v musl-gcc >/dev/null 2>&1; then
	musl-gcc -O1 -o "$T/m1tid-musl" "$S/tests/prog/m1tid.c" 2>"$T/cc" &&
	if [ "$("$T/m1tid-musl")" = different ] && [ "$("$B/bin/green-run" "$T/m1tid-musl")" = same ]; then
		pass "green-run: an unchanged musl-gcc program runs on green threads"
	else
		fail "green-run: the musl-gcc program"
		cat "$T/cc"
	fi
else
	echo "SKIP: an unchanged musl-gcc program (musl-tools is not installed)"
fi
refused() {   # refused LABEL PROGRAM WORDS: one line on stderr, status 127
	"$B/bin/green-run" "$2" >"$T/out" 2>"$T/err"
	st=$?
	if [ $st = 127 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "$3" "$T/err" && [ ! -s "$T/out" ]; then
		pass "green-run refuses $1 in one line"
	else
		fail "green-run refuses $1: status $st, stderr:"
		sed 's/^/    | /' "$T/err"
	fi
}
refused "a glibc program" "$D/counter-glibc" "linked against glibc"
refused "a static program" "$B/tests/prog/m1tid-green" "statically linked"

# ---- PIEs: the kernel places them anew at each run
for p in where-green where-pie; do
	a=$("$D/$p") b=$("$D/$p")
	if [ -n "$a" ] && [ "$a" != "$b" ] &&
	   [ "${a%% *}" != "${b%% *}" ]; then
		pass "$p: its code and data move between two runs"
	else
		fail "$p: the same addresses twice: '$a'"
	fi
done

# ---- seeded schedules of a PIE: found, then replayed 10 of 10, through
# green-explore (which turns randomisation off for its runs) and run
# directly with the schedule its replay line names, randomisation on
for p in lost-update-dyn lost-update-pie; do
	out=$(GREEN_STACKS=separate "$B/bin/green-explore" -q -n $EXPLORE_RUNS -- "$B/tests/explore/$p")
	sched=$(printf '%s\n' "$out" | sed -n 's/^green-explore: seed [0-9]*, GREEN_SCHED=\([^,]*\),.*/\1/p')
	hash=$(printf '%s\n' "$out" | sed -n 's/^green-explore: seed .*, decision hash \([0-9a-f]*\)$/\1/p')
	if [ -z "$sched" ] || [ -z "$hash" ]; then
		fail "$p: green-explore found no failing seed"
		printf '%s\n' "$out" | tail -3
		continue
	fi
	rep=$("$B/bin/green-explore" -q --replay "$sched" -n 10 -- "$B/tests/explore/$p")
	if printf '%s\n' "$rep" | grep -q "10 runs, identical hash $hash"; then
		pass "$p: $sched replays 10 of 10 through green-explore"
	else
		fail "$p: $sched does not replay"
		printf '%s\n' "$rep"
	fi
	n=0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		h=$(GREEN_SCHED=$sched "$B/tests/explore/$p" 2>&1 | grep -o "hash=$hash")
		[ -n "$h" ] && n=$((n + 1))
	done
	if [ $n = 10 ]; then
		pass "$p: $sched replays 10 of 10 run directly, addresses randomised"
	else
		fail "$p: $sched gave its hash in $n of 10 direct runs"
	fi
done

# ---- the race detector in a static PIE: the report names the PIE's
# function and global (their addresses moved by the load)
if [ -f "$B/lib/green/race.o" ]; then
	if "$B/bin/green-cc" --race -static-pie -O1 -g -o "$T/race-pie" "$S/tests/race/counter.c" 2>"$T/err"; then
		"$T/race-pie" >"$T/out" 2>&1
		st=$?
		if [ $st = 66 ] && grep -q "^    #0 bump " "$T/out" && grep -q "Location is global .counter." "$T/out"; then
			pass "green-cc --race -static-pie: the report names bump() and 'counter'"
		else
			fail "green-cc --race -static-pie: status $st"
			sed 's/^/    | /' "$T/out" | head -20
		fi
	else
		fail "green-cc --race -static-pie does not link: $(cat "$T/err")"
	fi
fi

# ---- what green-cc refuses
for opt in --race --sched-points=memory; do
	if "$B/bin/green-cc" --dynamic $opt -o "$T/x" "$S/tests/prog/m1tid.c" 2>"$T/err"; then
		fail "green-cc --dynamic $opt links"
	elif grep -q "link statically only" "$T/err"; then
		pass "green-cc --dynamic $opt is refused, saying why"
	else
		fail "green-cc --dynamic $opt: $(cat "$T/err")"
	fi
done
finish
