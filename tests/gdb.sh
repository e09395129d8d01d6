#!/bin/sh
# gdb.sh — the gdb extension (gdb/green-gdb.py, docs/debugging.md), with
# gdb in batch mode against tests/prog/gdbwait-green: threads parked on a
# mutex, in a condition wait, in sleep(), in pthread_join and in read() on
# a pipe must each be listed with what they wait for, and each backtrace
# must reach the thread's own function; in both stack modes.  Then
# stepping one thread while time-slice ticks preempt it.
#
# The program's .debug_gdb_scripts entry names the script in the source
# tree, which gdb's default auto-load safe-path does not cover (an
# installed green's is covered); so gdb runs with the source tree's gdb/
# added to the safe path, and nothing else: the script must load itself.
. "$GREEN_SRC/tests/lib.sh"
GDB=${GDB:-}
P=$B/tests/prog
PROG=$P/gdbwait-green

if [ -n "$GREEN_RUN" ]; then
	echo "SKIP: the gdb extension (gdb cannot look inside a cross build under $GREEN_RUN)"
	exit 77
fi
if [ -z "$GDB" ] || ! command -v "$GDB" >/dev/null 2>&1; then
	echo "SKIP: the gdb extension (gdb is not installed)"
	exit 77
fi
if ! "$GDB" -nx -batch -ex 'python print("py-ok")' 2>/dev/null | grep -q py-ok; then
	echo "SKIP: the gdb extension ($GDB has no Python)"
	exit 77
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/green-gdb.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
TO=
command -v timeout >/dev/null 2>&1 && TO="timeout 120"

# gdb_batch STACK-MODE GDB-ARGS...: output in $T/out, status in $st
gdb_batch() {
	mode=$1
	shift
	$TO env GREEN_STACKS="$mode" "$GDB" -nx -batch \
		-iex "add-auto-load-safe-path $S/gdb" "$@" >"$T/out" 2>&1
	st=$?
}

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

# section NAME: the "green-thread apply all bt" part for thread NAME
section() {
	awk -v n="\"$1\"" '
		/^Green thread / { on = index($0, n) > 0; next }
		/^\[/ { on = 0 }
		on' "$T/out"
}

# ---- is read() green yet?  Until it is, a thread in read() parks the
# whole process, and the reader is left out.
arg=
want=5
probe=
command -v timeout >/dev/null 2>&1 && probe="timeout 10"
if $probe "$PROG" >"$T/probe" 2>&1 && grep -q '^done$' "$T/probe"; then
	:
else
	echo "SKIP: a thread in read() on a pipe (read() parks the whole process: not green yet)"
	arg=noread
	want=4
fi

for mode in separate copied; do
	gdb_batch $mode \
		-ex 'info auto-load python-scripts' \
		-ex 'break stop_here' -ex run \
		-ex 'info green-threads' \
		-ex 'green-thread apply all bt' \
		-ex 'green-thread 2' -ex bt -ex 'info locals' -ex frame \
		-ex continue \
		--args "$PROG" $arg
	m="gdb ($mode stacks)"
	if ! grep -q "parked $want" "$T/out"; then
		fail "$m: the program did not reach stop_here with $want threads parked"
		show
		continue
	fi
	expect "$m: the extension loads itself" '^Yes +.*/gdb/green-gdb\.py *$'
	expect "$m: lists the running thread" '^\* +1 +gdbwait-green +running '
	expect "$m: names the mutex and its holder" \
		'^ +2 +mutex-waiter +blocked +mutex 0x[0-9a-f]+ held by thread 1 "gdbwait-green" +(separate|copied) +in_mutex \(gdbwait\.c:[0-9]+\)'
	expect "$m: names the condition variable and its mutex" \
		'^ +3 +cond-waiter +blocked +condition variable 0x[0-9a-f]+ \(mutex 0x[0-9a-f]+\) +(separate|copied) +in_cond '
	expect "$m: names the sleep and its deadline" \
		'^ +4 +sleeper +blocked +sleep, deadline in [0-9.]+ s +(separate|copied) +in_sleep .* in sleep$'
	expect "$m: names the join target" \
		'^ +5 +joiner +blocked +join of thread 2 "mutex-waiter" +(separate|copied) +in_join '
	if [ -z "$arg" ]; then
		expect "$m: names the descriptor wait" \
			'^ +6 +reader +blocked +(fd 3 \(read\)|descriptor wait \(key 0x[0-9a-f]+\)) +(separate|copied) +in_read .* in read$'
	fi
	for tf in mutex-waiter:in_mutex cond-waiter:in_cond sleeper:in_sleep joiner:in_join reader:in_read; do
		t=${tf%%:*} f=${tf#*:}
		[ "$t" = reader ] && [ -n "$arg" ] && continue
		section "$t" >"$T/sec"
		if grep -Eq "^#[0-9]+ +0x[0-9a-f]+ in $f \(" "$T/sec" &&
		   grep -q '__green_arch_start ()' "$T/sec" &&
		   ! grep -q 'Backtrace stopped' "$T/sec"; then
			pass "$m: backtrace of $t reaches $f and the thread's start"
		else
			fail "$m: backtrace of $t does not show $f down to __green_arch_start"
			sed 's/^/    | /' "$T/sec"
		fi
	done
	section gdbwait-green >"$T/sec"
	if grep -Eq '^#0 +stop_here ' "$T/sec" && grep -Eq ' in main ' "$T/sec"; then
		pass "$m: backtrace of the running thread"
	else
		fail "$m: backtrace of the running thread"
		show
	fi
	expect "$m: green-thread 2 switches" \
		'^\[Switching to green thread 2 "mutex-waiter" \(blocked: mutex 0x[0-9a-f]+ held by thread 1 "gdbwait-green"\)\]$'
	expect "$m: then bt shows it from frame 1" '^#1 +0x[0-9a-f]+ in __green_switch '
	expect "$m: then info locals shows its locals" '^tag = 42$'
	expect "$m: continue goes back to the running thread" \
		'^\[Green thread 2 "mutex-waiter" is parked: back to the running thread\]$'
	expect "$m: the program then runs to its end" '^\[Inferior 1 \(process [0-9]+\) exited normally\]$'
	if grep -q 'SIGALRM' "$T/out"; then
		fail "$m: SIGALRM shows in the session"
		show
	fi
done

# ---- stepping one thread while the other preempts it: every "next" must
# land on the next line of the same thread, and no tick may show.
gdb_batch separate -ex 'tbreak stepper' -ex run -ex next -ex 'p who' \
	-ex next -ex next -ex next -ex 'p who' -ex 'p steps' \
	-ex 'info green-threads' -ex kill --args "$PROG" spin
m="gdb: next under time slicing"
w1=$(sed -n 's/^\$1 = //p' "$T/out")
w2=$(sed -n 's/^\$2 = //p' "$T/out")
if [ -n "$w1" ] && [ "$w1" = "$w2" ] && grep -q '^\$3 = 3$' "$T/out" &&
   grep -Eq '^104[[:space:]]+compute\(40\);' "$T/out" &&
   ! grep -Eq 'SIGALRM|Program received signal' "$T/out"; then
	pass "$m stays in the stepped thread"
else
	fail "$m: the steps left the thread, or a signal showed"
	show
fi
if grep -Eq '^ +[0-9]+ +runnable +- +separate +(now_ms|compute|stepper) ' "$T/out"; then
	pass "$m: the other thread was preempted meanwhile"
else
	echo "NOTE: the other thread did not run while stepping (no time slicing in this build?):"
	grep -E '^ +[0-9]+ +(runnable|blocked) ' "$T/out" | sed 's/^/    | /'
fi

finish
