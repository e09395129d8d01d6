#!/bin/sh
# programs.sh — the standalone programs of tests/prog, built in both modes
# as $B/tests/prog/NAME-green and NAME-1to1: their exit status, stdout
# and stderr.  strace and valgrind checks run when $STRACE / $VALGRIND
# name the tools.
. "$GREEN_SRC/tests/lib.sh"
STRACE=${STRACE:-}
VALGRIND=${VALGRIND:-}
P=$B/tests/prog
T=$(mktemp -d "${TMPDIR:-/tmp}/green-programs.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM

# A hung program fails its check instead of hanging the suite.
TO=
command -v timeout >/dev/null 2>&1 && TO="timeout 20"

# run [WRAPPER...] PROGRAM: stdout to $T/out, stderr to $T/err, status in $st
run() {
	$TO $GREEN_RUN "$@" >"$T/out" 2>"$T/err"
	st=$?
}
# run_env NAME=VALUE... -- PROGRAM: run with those in the environment
run_env() {
	kvs=
	while [ "$1" != -- ]; do kvs="$kvs $1"; shift; done
	shift
	$TO env $kvs $GREEN_RUN "$@" >"$T/out" 2>"$T/err"
	st=$?
}

# expect_status WHAT WANT: check $st, showing stderr on failure
expect_status() {
	if [ "$st" = "$2" ]; then
		return 0
	fi
	fail "$1: exit status $st, want $2"
	sed 's/^/    | /' "$T/err"
	return 1
}

# out_is WHAT TEXT: stdout is exactly TEXT
out_is() {
	printf '%s\n' "$2" >"$T/want"
	if cmp -s "$T/want" "$T/out"; then
		pass "$1"
	else
		fail "$1: unexpected output"
		diff "$T/want" "$T/out" | sed 's/^/    | /'
	fi
}

# ---- nothreads: a program without threads pays nothing for the library
for m in green 1to1; do
	run "$P/nothreads-$m"
	expect_status "nothreads-$m" 0 && out_is "nothreads-$m runs" "nothreads 1"
done
if [ -n "$STRACE" ]; then
	# the sets of system-call names must be the same as stock musl's
	for m in green 1to1; do
		$TO $STRACE -f -qq -o "$T/strace-$m" "$P/nothreads-$m" >/dev/null 2>&1
		sed -n 's/^[0-9]*  *\([a-z_0-9]*\)(.*/\1/p' "$T/strace-$m" | sort -u >"$T/calls-$m"
	done
	if [ ! -s "$T/calls-green" ]; then
		fail "nothreads: strace recorded no system calls"
	elif cmp -s "$T/calls-green" "$T/calls-1to1"; then
		pass "nothreads-green makes the system calls stock musl makes"
	else
		fail "nothreads-green: system calls differ from stock musl's (< green, > 1to1)"
		diff "$T/calls-green" "$T/calls-1to1" | sed 's/^/    | /'
	fi
else
	echo "SKIP: nothreads under strace (strace not installed)"
fi
# copied stacks: 2000 threads take turns, 10 rounds, more than the 1024
# hot stacks the hot set starts with; it grows to hold them, so loads
# (an mprotect or mremap each) stop; fixed at 1024 (GREEN_COPIED_HOT),
# every switch loads one
if [ -n "$STRACE" ]; then
	for hot in grows 1024; do
		kv="GREEN_STACKS=copied GREEN_QUANTUM_MS=0"
		[ $hot = grows ] || kv="$kv GREEN_COPIED_HOT=$hot"
		$TO env $kv $STRACE -qq -e trace=mprotect,mremap -o "$T/hot" "$P/hotring-green" 2000 10 >"$T/out" 2>"$T/err"
		st=$? n=$(grep -c . "$T/hot")
		expect_status "hotring-green ($hot)" 0 || continue
		if [ $hot = grows ] && [ "$n" -lt 6000 ]; then
			pass "hotring-green: the hot set grows to the 2000 threads taking turns ($n loads in 20000 switches)"
		elif [ $hot = 1024 ] && [ "$n" -gt 20000 ]; then
			pass "hotring-green: a hot set fixed at 1024 loads at every switch of 2000 threads ($n loads)"
		else
			fail "hotring-green ($hot): $n loads in 20000 switches"
		fi
		out_is "hotring-green ($hot): every thread's stack intact" ok
	done
fi

# ---- deadlock: reported and aborted (green only: 1:1 would hang); the
# mutex with a symbol is named by it, the one on the heap (x86_64) by
# the frame that locks it, and the worker's wait by its frame
# (src/core/symbols.c), with separate and with copied stacks
check_deadlock() {
	expect_status "$1" 134 || return
	if ! head -n 1 "$T/err" | grep -q '^green: deadlock'; then
		fail "$1: stderr does not start with 'green: deadlock'"
		sed 's/^/    | /' "$T/err"
	elif ! grep -q '"lock-main"' "$T/err" || ! grep -q '"lock-worker"' "$T/err"; then
		fail "$1: the report does not name both threads"
		sed 's/^/    | /' "$T/err"
	elif ! grep -q "\"lock-worker\" waits for mutex 'ledger' (0x[0-9a-f]*) held by thread 1 \"lock-main\"" "$T/err"; then
		fail "$1: the mutex with a symbol is not named 'ledger'"
		sed 's/^/    | /' "$T/err"
	elif [ "$GREEN_ARCH" = x86_64 ] && { ! grep -q "'ledger'.*, in take_vault_then_ledger+0x[0-9a-f]*$" "$T/err" ||
	     ! grep -q '"lock-main" waits for mutex 0x[0-9a-f]* (the one main+0x[0-9a-f]* locks) held by' "$T/err"; }; then
		fail "$1: the frames (take_vault_then_ledger, main) are not named"
		sed 's/^/    | /' "$T/err"
	else
		pass "$1"
	fi
}
run "$P/deadlock-green"
check_deadlock deadlock-green
run_env GREEN_STACKS=copied -- "$P/deadlock-green"
check_deadlock "deadlock-green (copied stacks)"

# ---- rqcorrupt: a run-queue link broken on purpose is reported by
# GREEN_DEBUG's checks at the next switch, naming the thread, and the
# process aborts (a core), in both stack modes
for mode in separate copied; do
	run_env GREEN_DEBUG=checks GREEN_STACKS=$mode -- "$P/rqcorrupt-green"
	expect_status "rqcorrupt-green ($mode stacks)" 134 || continue
	if grep -q '^green: invariant broken: thread [0-9]* "victim": .*run queue.*: found .*, expected ' "$T/err"; then
		pass "rqcorrupt-green ($mode stacks): the broken link reported, naming the thread"
	else
		fail "rqcorrupt-green ($mode stacks): no invariant report naming \"victim\" on the run queue"
		sed 's/^/    | /' "$T/err"
	fi
done

# ---- exittwice: threads calling exit() at once: one runs it, the
# others wait for the end (the destructors run once), plainly and under
# seeded schedules, both stack modes
bad=
for mode in separate copied; do
	for s in off pct:1 pct:2 random:1 random:2; do
		if [ $s = off ]; then run_env GREEN_STACKS=$mode -- "$P/exittwice-green"
		else run_env GREEN_STACKS=$mode GREEN_SCHED=$s -- "$P/exittwice-green"; fi
		[ "$st" = 3 ] || bad="$bad $s/$mode (status $st: $(head -c 80 "$T/err"))"
	done
done
if [ -z "$bad" ]; then pass "exittwice-green: one thread runs exit(), 5 schedules, both stack modes"
else fail "exittwice-green:$bad"; fi

# ---- stacksize: the guard right past the size asked for (separate
# stacks: a copied thread's room is its slot), a deep default stack
# without attributes (both stack modes), the default glibc's
run "$P/stacksize-green" fit
expect_status "stacksize-green fit: 64 KiB asked, all but 2 KiB used" 0 && pass "stacksize-green fit"
run "$P/stacksize-green" over
if expect_status "stacksize-green over: one page past 64 KiB asked" 139; then
	if grep -q '"tight" overflowed its stack of 65536 bytes' "$T/err"; then
		pass "stacksize-green over: faults in the guard, the thread named"
	else
		fail "stacksize-green over: no line naming \"tight\" and its 65536 bytes"
		sed 's/^/    | /' "$T/err"
	fi
fi
for mode in separate copied; do
	run_env GREEN_STACKS=$mode -- "$P/stacksize-green" default
	expect_status "stacksize-green default ($mode stacks): $(cat "$T/out")" 0 || continue
	pass "stacksize-green default ($mode stacks): $(cat "$T/out")"
	# a 32-bit CPU keeps musl's 128 KiB: no 1 MiB frame there
	[ "$(sed -n 's/^default //p' "$T/out")" -ge 2097152 ] || continue
	run_env GREEN_STACKS=$mode -- "$P/stacksize-green" deep
	expect_status "stacksize-green deep ($mode stacks): 1 MiB used, no attribute" 0 &&
		pass "stacksize-green deep ($mode stacks)"
done

# ---- overflow: the thread is named, then the process dies of SIGSEGV
check_overflow() {
	expect_status "$1" 139 || return
	if grep -q '"deep-diver".*overflowed its stack.*GREEN_STACK_SIZE' "$T/err"; then
		pass "$1"
	else
		fail "$1: no 'overflowed its stack' line naming the thread and GREEN_STACK_SIZE"
		sed 's/^/    | /' "$T/err"
	fi
}
run "$P/overflow-green"
check_overflow overflow-green
# the program's own handler, installed once the thread exists, runs
# after the message
run "$P/overflow-green" handler
if expect_status "overflow-green handler" 7; then
	if grep -q '"deep-diver".*overflowed its stack' "$T/err" && grep -q '^handler$' "$T/err"; then
		pass "overflow-green handler: the thread is named, then the program's handler runs"
	else
		fail "overflow-green handler: want the 'overflowed its stack' line and then 'handler'"
		sed 's/^/    | /' "$T/err"
	fi
fi
# any other fault of a thread's: named too
run "$P/overflow-green" wild
if expect_status "overflow-green wild" 139; then
	if grep -q '"deep-diver".*received SIGSEGV (fault at 0x10' "$T/err"; then
		pass "overflow-green wild: the faulting thread is named"
	else
		fail "overflow-green wild: no 'received SIGSEGV' line naming the thread"
		sed 's/^/    | /' "$T/err"
	fi
fi
# a copied thread's variable written by main while its owner is parked:
# it lands (a slot per thread), or on a 32-bit CPU past the slots the
# touch is named and the process dies
run_env GREEN_STACKS=copied -- "$P/slotshare-green"
if grep -q '^bits 64$' "$T/out"; then
	expect_status "slotshare-green (64-bit)" 0 && grep -q '^ok$' "$T/out" &&
		pass "slotshare-green: main's write reaches a parked copied thread's stack variable" ||
		fail "slotshare-green: no 'ok'"
elif expect_status "slotshare-green (32-bit)" 139; then
	if grep -q '^green: thread 1 "slotshare-green" touched 0x[0-9a-f]*, in the copied stack slot shared by thread [0-9]' "$T/err"; then
		pass "slotshare-green: a touch of a shared slot names main, the address and the threads sharing it"
	else
		fail "slotshare-green: no 'touched ... in the copied stack slot shared by' line"
		sed 's/^/    | /' "$T/err"
	fi
fi

# ---- exitmain: returning from main ends the process, blocked threads or not
for m in green 1to1; do
	run "$P/exitmain-$m"
	expect_status "exitmain-$m" 3 && pass "exitmain-$m"
done

# ---- forkworker: a fork child (no pthread_atfork in the program) has
# only the forking thread
for m in green 1to1; do
	run "$P/forkworker-$m"
	expect_status "forkworker-$m" 0 && out_is "forkworker-$m" "child exit status 0"
done

# ---- exitthread: exit() from another thread, atexit handlers run
for m in green 1to1; do
	run "$P/exitthread-$m"
	expect_status "exitthread-$m" 5 &&
		out_is "exitthread-$m" "thread calls exit
atexit handler ran"
done

# ---- lastexit: main's pthread_exit leaves the others running to the end
for m in green 1to1; do
	run "$P/lastexit-$m"
	if expect_status "lastexit-$m" 0; then
		if grep -qx 'one done' "$T/out" && grep -qx 'two done' "$T/out" &&
		   [ "$(wc -l <"$T/out")" -eq 2 ]; then
			pass "lastexit-$m"
		else
			fail "lastexit-$m: want 'one done' and 'two done'"
			sed 's/^/    | /' "$T/out"
		fi
	fi
done

# ---- m1tid: green threads share the one kernel thread
run "$P/m1tid-green"
expect_status m1tid-green 0 && out_is m1tid-green same
run "$P/m1tid-1to1"
expect_status m1tid-1to1 0 && out_is m1tid-1to1 different

# ---- staleuse: a write through a pointer to an exited thread's local is
# silent normally; GREEN_DEBUG=1 quarantines released stacks and names both
# threads at the write
run "$P/staleuse-green"
expect_status "staleuse-green" 0
GREEN_DEBUG=1 run "$P/staleuse-green"
if expect_status "staleuse-green GREEN_DEBUG=1" 139; then
	if grep -q '^green: thread 1 "staleuse-green" touched the stack of exited thread 2 "leaker" (fault at ' "$T/err"; then
		pass "staleuse-green GREEN_DEBUG=1: the write is named, with the writer and the exited thread"
	else
		fail "staleuse-green GREEN_DEBUG=1: no line naming both threads"
		sed 's/^/    | /' "$T/err"
	fi
fi

# ---- heapgrow: the timer heap grows under 10 us ticks, in fresh processes
# (a tick read the unmapped old array: 96 of 100 rounds died before); under
# an emulator fewer, smaller rounds
hg="30 600"
[ -n "$GREEN_RUN" ] && hg="5 200"
# (CPU-bound under 10 us ticks: 3 to 7 s at a load of 10 on 2 CPUs, so
# its hang guard is longer than the others')
to=$TO
[ -n "$TO" ] && TO="timeout 120"
GREEN_QUANTUM_MS=0.01 run "$P/heapgrow-green" $hg
TO=$to
expect_status "heapgrow-green" 0 && pass "heapgrow-green: $(cat "$T/out")"

# ---- peerexit: a write preempted while it wakes its peer's reader, which
# exits meanwhile; the writer must not touch the reader's node after that
# (it read the freed descriptor: under qemu 16 of 600 runs died before).
# Chance decides whether a tick lands there, so fresh processes, many
# times: copied stacks (the descriptor unmapped at once) and separate
# ones under GREEN_DEBUG=1 (kept inaccessible) in turn
pe_runs=200 pe_bad=0 pe_first=
for i in $(seq 1 $pe_runs); do
	case $((i % 2)) in
	0) kv="GREEN_STACKS=copied" ;;
	*) kv="GREEN_STACKS=separate GREEN_DEBUG=1" ;;
	esac
	run_env GREEN_QUANTUM_MS=1 $kv -- "$P/peerexit-green"
	if [ "$st" != 0 ]; then
		pe_bad=$((pe_bad + 1))
		[ -n "$pe_first" ] || pe_first="$kv: status $st: $(head -c 300 "$T/err")"
	fi
done
if [ "$pe_bad" = 0 ]; then
	pass "peerexit-green: $pe_runs runs, the reader's node untouched after it exits"
else
	fail "peerexit-green: $pe_bad of $pe_runs runs failed, first: $pe_first"
fi

# ---- ctor: threads from a constructor, before main
for m in green 1to1; do
	run "$P/ctor-$m"
	expect_status "ctor-$m" 0 && out_is "ctor-$m" "ctor 1
main 4"
done

# ---- the environment: each sample message of docs/environment.md is
# what the program prints for that setting (a misspelt name included)
sed -n 's/^green: ignoring \(GREEN_[A-Z_]*\)\(=[^ ]*\)\{0,1\} .*/\1\2/p' \
	"$S/docs/environment.md" | sort -u >"$T/samples"
[ -s "$T/samples" ] || fail "docs/environment.md: no sample messages found"
while read -r kv; do
	case $kv in *=*) ;; *) kv=$kv=1 ;; esac
	run_env "$kv" -- "$P/m1tid-green"
	want=$(grep -F "green: ignoring ${kv%=1} " "$S/docs/environment.md" | head -1)
	if [ "$st" = 0 ] && grep -qxF "$want" "$T/err"; then
		pass "$kv: the message docs/environment.md shows"
	else
		fail "$kv: want '$want'"
		sed 's/^/    | /' "$T/err"
	fi
done <"$T/samples"
# a name that is nobody's misspelling, and the build's own, are let be
run_env GREEN_BUILD=x GREEN_CC_CC=cc GREEN_HOST=y -- "$P/m1tid-green"
if [ "$st" = 0 ] && [ ! -s "$T/err" ]; then
	pass "other GREEN_ names are let be"
else
	fail "other GREEN_ names: status $st"
	sed 's/^/    | /' "$T/err"
fi

# ---- the README's example compiles cleanly with -Wall
sed -n '/^    \$ cat hello\.c$/,/^    \$ /p' "$S/README.md" | sed '1d;$d;s/^    //' >"$T/hello.c"
if ! grep -q pthread_create "$T/hello.c"; then
	fail "README.md: no hello.c example found"
elif $TO "$B/bin/green-cc" -Wall -Werror -O2 -o "$T/hello" "$T/hello.c" >"$T/err" 2>&1 &&
     run "$T/hello" && [ "$st" = 0 ] && [ "$(grep -c ' in process ' "$T/out")" = 4 ] &&
     # main's id is the process id; the threads' are their own, distinct
     [ "$(awk '/^main: id/ { print ($3 == $6) }' "$T/out")" = 1 ] &&
     [ "$(awk '/^thread/ && $4 >= 4194304 { print $4 }' "$T/out" | sort -u | wc -l)" = 3 ]; then
	pass "README.md's hello.c compiles with -Wall -Werror and runs"
else
	fail "README.md's hello.c"
	sed 's/^/    | /' "$T/err"
fi

# ---- some of the green programs again under valgrind memcheck
if [ -n "$VALGRIND" ]; then
	VG="$VALGRIND $VG_FLAGS"
	run $VG "$P/exitmain-green"
	expect_status "exitmain-green under valgrind" 3 && pass "exitmain-green under valgrind"
	run $VG "$P/exitthread-green"
	expect_status "exitthread-green under valgrind" 5 && pass "exitthread-green under valgrind"
	run $VG "$P/deadlock-green"
	check_deadlock "deadlock-green under valgrind"
	run $VG "$P/overflow-green"
	check_overflow "overflow-green under valgrind"
else
	echo "SKIP: programs under valgrind (valgrind not installed)"
fi

finish
