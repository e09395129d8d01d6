#!/bin/sh
# gdb-stops.sh — the gdb extension (docs/debugging.md) where a debugger
# actually stops an optimised program (tests/prog/gdbstops.c, -O2): after
# a failed assert in a worker, at a breakpoint in main, at a breakpoint in
# an inlined function, after the deadlock report, at a Ctrl-C (SIGINT)
# while every thread waits, and in a core file of the assert.  At each,
# `info green-threads` must list every thread with its wait, and `green-
# thread apply all bt` must show each thread's own function as its first
# frame outside the library; in both stack modes (the core file too: a
# copied-stack thread's frames are put back in its own slot before a
# signal dumps core, src/core/stack/copied.c).  In a cross build (m68k)
# the same stops are made with gdb-multiarch attached to qemu-user's gdb
# stub (lib.sh: need_gdb remote, gdb_remote), but the core file.
. "$GREEN_SRC/tests/lib.sh"
GDB=${GDB:-}
PROG=$B/tests/prog/gdbstops-green

need_gdb remote
scratch gdb-stops
timeout_of 120
[ -n "$GREEN_RUN" ] && timeout_of 600   # gdb stepping an emulated CPU

# gdb_batch STACK-MODE GDB-ARGS...: output in $T/out; in a cross build the
# program runs under the emulator's gdb stub (lib.sh: gdb_remote)
gdb_batch() {
	mode=$1
	shift
	if [ -n "$GREEN_RUN" ]; then
		GREEN_STACKS="$mode" GREEN_COPIED_HOT=$HOT $TO sh -c '. "$GREEN_SRC/tests/lib.sh"; GDB=$0; gdb_remote "$@"' \
			"$GDB" -nx -batch -iex "add-auto-load-safe-path $S/gdb" "$@" >"$T/out" 2>&1
		return
	fi
	$TO env GREEN_STACKS="$mode" GREEN_COPIED_HOT=$HOT "$GDB" -nx -batch \
		-iex "add-auto-load-safe-path $S/gdb" "$@" >"$T/out" 2>&1
}
# copied stacks: four hot at most (the least there is), so that most of
# the six threads are parked cold and shown from their save areas (live)
# or from their slots, where a dying process puts them back (core)
HOT=4

show() { sed 's/^/    | /' "$T/out"; }

# expect WHAT ERE: a line of the output matches
expect() {
	if grep -Eq -- "$2" "$T/out"; then
		pass "$1"
	else
		fail "$1: no line matches /$2/"
		show
	fi
}

# top NAME: the first frame in gdbstops.c of thread NAME's backtrace
# (the "green-thread apply all bt" part), as "FUNCTION"
top() {
	awk -v n="$1" '
		/^Green thread / { on = $4 == "\"" n "\"" || $4 == "\"" n "\":"; next }
		/^\[/ { on = 0 }
		on && /gdbstops\.c:/ {
			sub(/^#[0-9]+ +(0x[0-9a-f]+ in )?/, "")
			sub(/ .*/, "")
			print
			exit
		}' "$T/out"
}

# threads M WHO:FUNCTION:WAIT-ERE...: every thread WHO is listed with its
# wait, and its backtrace's first frame of the program is FUNCTION ("_"
# in WAIT-ERE stands for a space)
threads() {
	m=$1
	shift
	bad=
	for tfw in "$@"; do
		who=${tfw%%:*} rest=${tfw#*:}
		fn=${rest%%:*}
		wait=$(printf '%s' "${rest#*:}" | tr _ ' ')
		if ! grep -Eq -- "^[ *>] +[0-9]+ +$who +$wait" "$T/out"; then
			bad="$bad; $who is not listed as /$wait/"
		fi
		got=$(top "$who")
		[ "$got" = "$fn" ] || bad="$bad; the backtrace of $who starts at ${got:-nothing}, not $fn"
	done
	if [ -z "$bad" ]; then
		pass "$m: every thread listed with its wait and its own backtrace"
	else
		fail "$m${bad}"
		show
	fi
}

MUTEX='blocked_+mutex_0x[0-9a-f]+_held_by_thread_1_"gdbstops-green"'
COND='blocked_+condition_variable_0x[0-9a-f]+_\(mutex_0x[0-9a-f]+\)'
PARKED="mutex-waiter:in_mutex:$MUTEX cond-waiter:in_cond:$COND"
PARKED="$PARKED reader:in_read:blocked_+fd_[0-9]+_\\(read\\) sleeper:in_sleep:blocked_+sleep"
SHOW="-ex 'info green-threads' -ex 'green-thread apply all bt'"
line=$(grep -n 'gdb-stops.sh: break here' "$S/tests/prog/gdbstops.c" | sed 's/:.*//')

for mode in separate copied; do
	# -- a worker's assert: frame 0 is inlined (die, in green's signal path)
	eval gdb_batch $mode -ex run $SHOW -ex "'gcore $T/core'" --args "$PROG" assert
	m="assert ($mode stacks)"
	expect "$m: SIGABRT" '^Program received signal SIGABRT'
	threads "$m" $PARKED "gdbstops-green:main:runnable" "asserter:asserter:running"
	[ $mode = separate ] && cp "$T/out" "$T/assert.out"

	# -- the core file of that assert (qemu's gdb stub writes none)
	if [ -n "$GREEN_RUN" ]; then
		echo "SKIP: core file ($mode stacks): gcore through $GREEN_RUN's gdb stub"
	elif [ -s "$T/core" ]; then
		eval gdb_batch $mode $SHOW "$PROG" "$T/core"
		m="core file ($mode stacks)"
		threads "$m" $PARKED "gdbstops-green:main:runnable" "asserter:asserter:running"
		rm -f "$T/core"
	else
		fail "core file ($mode stacks): gcore wrote none"
		show
	fi

	# -- a breakpoint in main
	eval gdb_batch $mode -ex "'break gdbstops.c:$line'" -ex run $SHOW \
		-ex "'green-thread 2'" -ex continue --args "$PROG" main
	m="breakpoint in main ($mode stacks)"
	threads "$m" $PARKED "gdbstops-green:main:running"
	expect "$m: green-thread 2 selects the thread's own frame" '^#[0-9]+ +0x[0-9a-f]+ in in_mutex '
	expect "$m: the program then runs to its end" '^\[Inferior 1 \((process|Remote target) [0-9]*\) ?exited normally\]$'
	if grep -q "Python Exception" "$T/out"; then
		fail "$m: a Python exception"
		show
	fi

	# -- a breakpoint in an inlined function
	eval gdb_batch $mode -ex "'break inlined_stop'" -ex run $SHOW -ex continue \
		--args "$PROG" inline
	m="breakpoint in an inlined function ($mode stacks)"
	expect "$m: stops there" '^Breakpoint 1, .*inlined_stop '
	threads "$m" $PARKED "gdbstops-green:inlined_stop:running"

	# -- the deadlock report, then abort
	eval gdb_batch $mode -ex run $SHOW -ex "'green-mutex &second'" -ex "'green-mutex main_lock'" \
		--args "$PROG" deadlock
	m="deadlock ($mode stacks)"
	expect "$m: the report" '^green: deadlock: '
	threads "$m" "mutex-waiter:in_mutex:$MUTEX" "cond-waiter:in_cond:$COND" \
		"locker:locker:$MUTEX" \
		'gdbstops-green:main:blocked_+mutex_0x[0-9a-f]+_held_by_thread_4_"locker"'
	expect "$m: green-mutex names the holder" '^mutex 0x[0-9a-f]+: held by thread 4 "locker"$'
	expect "$m: green-mutex names the waiters" '^  waiting: thread 4 "locker"$'

	# -- Ctrl-C while every thread waits (main too, once it has parked)
	eval gdb_batch $mode -ex run $SHOW -ex kill --args "$PROG" hang
	m="interrupted hang ($mode stacks)"
	expect "$m: SIGINT" '^Program received signal SIGINT'
	threads "$m" $PARKED "gdbstops-green:main:(running|blocked)"
done

# the same session as a user types it, with the extension loaded as it is
# in the build tree: also the transcript in docs/debugging.md
cp "$T/assert.out" "$T/out"
expect "assert: frames of a parked thread start after the running thread's" \
	'^#2 +0x[0-9a-f]+ in (__)?green_switch '
finish
