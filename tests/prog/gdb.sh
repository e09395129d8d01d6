#!/bin/sh
# gdb.sh — the gdb extension (gdb/green-gdb.py, docs/debugging.md), with
# gdb in batch mode against tests/prog/gdbwait-green: threads parked on a
# mutex, in a condition wait, in sleep(), in pthread_join, in sigwait()
# and in read() on a pipe and on a socket pair must each be listed with
# what they wait for (and a variable of the socket reader's, held in a
# register across read(), must print right),
# and each backtrace must reach the thread's own function; in both stack
# modes.  Then stepping one thread while time-slice ticks preempt it (a
# preempted thread's backtrace starts at the program's frame).
# Then `__thread` variables (tests/prog/gdbtls-green): green-print and
# $green_tls must give each thread's own value and address, the ones the
# program printed, in both stack modes.
#
# Where green links dynamically (docs/dynamic.md), the same again with
# the programs built as a dynamically linked executable (-dyn: the
# layout table is libc.so's) and as a static PIE (-pie: loaded at an
# address of the kernel's choosing), in one stack mode each.
#
# The program's .debug_gdb_scripts entry names the script in the source
# tree, which gdb's default auto-load safe-path does not cover (an
# installed green's is covered when configured --with-gdb-auto-load-dir);
# so gdb runs with the source tree's gdb/ added to the safe path, and
# nothing else: the script must load itself.
. "$GREEN_SRC/tests/lib.sh"
GDB=${GDB:-}
P=$B/tests/prog
PROG=$P/gdbwait-green

need_gdb
scratch gdb
timeout_of 120

# gdb_batch STACK-MODE GDB-ARGS...: output in $T/out, status in $st
gdb_batch() {
	mode=$1
	shift
	# at most 4 copied stacks mapped: most parked threads are cold, their
	# frames in save areas (docs/stacks.md)
	$TO env GREEN_STACKS="$mode" GREEN_COPIED_HOT=4 "$GDB" -nx -batch \
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
want=8
probe=
command -v timeout >/dev/null 2>&1 && probe="timeout 10"
if $probe "$PROG" >"$T/probe" 2>&1 && grep -q '^done$' "$T/probe"; then
	:
else
	echo "SKIP: a thread in read() on a pipe (read() parks the whole process: not green yet)"
	arg=noread
	want=5
fi

# builds: BUILD:STACK-MODE, BUILD the program's suffix (tests/include.am)
builds="green:separate green:copied"
[ -x "$P/gdbwait-dyn" ] && builds="$builds dyn:separate pie:copied"
for bm in $builds; do
	build=${bm%:*} mode=${bm#*:}
	PROG=$P/gdbwait-$build
	me=gdbwait-$build
	gdb_batch $mode \
		-ex 'info auto-load python-scripts' \
		-ex 'break stop_here' -ex run \
		-ex 'info green-threads' \
		-ex 'green-thread apply all bt' \
		-ex 'green-thread 9' -ex 'frame function in_sockread' -ex 'print kept' \
		-ex 'green-thread 2' -ex bt -ex 'info locals' -ex frame \
		-ex continue \
		--args "$PROG" $arg
	m="gdb ($mode stacks)"
	[ $build = green ] || m="gdb ($build, $mode stacks)"
	if ! grep -q "parked $want" "$T/out"; then
		fail "$m: the program did not reach stop_here with $want threads parked"
		show
		continue
	fi
	expect "$m: the extension loads itself" '^Yes +.*/gdb/green-gdb\.py *$'
	expect "$m: lists the running thread" '^\* +1 +'"$me"' +running '
	expect "$m: names the mutex and its holder" \
		'^ +2 +mutex-waiter +blocked +mutex 0x[0-9a-f]+ held by thread 1 "'"$me"'" +'"$mode"' +in_mutex \(gdbwait\.c:[0-9]+\)'
	expect "$m: names the condition variable and its mutex" \
		'^ +3 +cond-waiter +blocked +condition variable 0x[0-9a-f]+ \(mutex 0x[0-9a-f]+\) +'"$mode"' +in_cond '
	expect "$m: names the sleep and its deadline" \
		'^ +4 +sleeper +blocked +sleep, deadline in [0-9.]+ s +'"$mode"' +in_sleep .* in sleep$'
	expect "$m: names the join target" \
		'^ +5 +joiner +blocked +join of thread 2 "mutex-waiter" +'"$mode"' +in_join '
	expect "$m: names the signals of the sigwait" \
		'^ +6 +sigwaiter +blocked +sigwait for \{SIGUSR1, SIGUSR2\} +'"$mode"' +in_sigwait .* in sigwait$'
	if [ -z "$arg" ]; then
		expect "$m: names the descriptor and the direction" \
			'^ +7 +reader +blocked +fd 3 \(read\) +'"$mode"' +in_read .* in read$'
		expect "$m: names the child's pidfd" \
			'^ +8 +child-waiter +blocked +child process \(pidfd [0-9]+\) +'"$mode"' +in_waitpid '
		expect "$m: names the socket and the direction" \
			'^ +9 +sock-reader +blocked +fd [0-9]+ \(read\) +'"$mode"' +in_sockread .* in read$'
		# kept is in a callee-saved register of in_sockread's across
		# read(), whose wait saves none itself: the switch's slot
		expect "$m: a caller's register variable through the usual wait" '^\$[0-9]+ = 1234567$'
	fi
	for tf in mutex-waiter:in_mutex cond-waiter:in_cond sleeper:in_sleep joiner:in_join \
	    sigwaiter:in_sigwait reader:in_read child-waiter:in_waitpid sock-reader:in_sockread; do
		t=${tf%%:*} f=${tf#*:}
		case $t in reader|child-waiter|sock-reader) [ -n "$arg" ] && continue ;; esac
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
	section "$me" >"$T/sec"
	if grep -Eq '^#0 +stop_here ' "$T/sec" && grep -Eq ' in main ' "$T/sec"; then
		pass "$m: backtrace of the running thread"
	else
		fail "$m: backtrace of the running thread"
		show
	fi
	expect "$m: green-thread 2 switches" \
		'^\[Switching to green thread 2 "mutex-waiter" \(blocked: mutex 0x[0-9a-f]+ held by thread 1 "'"$me"'"\)\]$'
	expect "$m: then bt shows it from frame 1" '^#1 +0x[0-9a-f]+ in (__)?green_switch '
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
PROG=$P/gdbwait-green
gdb_batch separate -ex 'tbreak stepper' -ex run -ex next -ex 'p who' \
	-ex next -ex next -ex next -ex 'p who' -ex 'p steps' \
	-ex 'info green-threads' -ex 'green-thread apply all bt' -ex kill --args "$PROG" spin
m="gdb: next under time slicing"
# the fourth compute(40) of stepper(), where the third next lands
last=$(awk '/\*stepper\(void \*arg\)$/ { on = 1 } on && /compute\(40\);/ { n = NR } on && /^}/ { print n; exit }' \
	"$S/tests/prog/gdbwait.c")
w1=$(sed -n 's/^\$1 = //p' "$T/out")
w2=$(sed -n 's/^\$2 = //p' "$T/out")
if [ -n "$w1" ] && [ "$w1" = "$w2" ] && grep -q '^\$3 = 3$' "$T/out" &&
   [ -n "$last" ] && grep -Eq "^$last[[:space:]]+compute\\(40\\);" "$T/out" &&
   ! grep -Eq 'SIGALRM|Program received signal' "$T/out"; then
	pass "$m stays in the stepped thread"
else
	fail "$m: the steps left the thread, or a signal showed"
	show
fi
if grep -Eq '^ +[0-9]+ +runnable +- +separate +(now_ms|compute|stepper) ' "$T/out"; then
	pass "$m: the other thread was preempted meanwhile"
	# a preempted thread is listed as such, and its backtrace starts at
	# the program's frame: no tick frame, no signal frame (__restore_rt)
	if grep -Eq '^ +[0-9]+ +runnable .*\(gdbwait\.c:[0-9]+\)( in [^ ]+)?, preempted by the tick$' "$T/out" &&
	   ! grep -Eq '<signal handler called>|__restore_rt|in tick \(' "$T/out" &&
	   grep -Eq '^#[0-9]+ +(0x[0-9a-f]+ in )?(now_ms|compute|stepper) ' "$T/out"; then
		pass "$m: the preempted thread is listed as preempted, its backtrace starts at the program's frame"
	else
		fail "$m: the preempted thread's listing or backtrace shows the tick"
		show
	fi
else
	echo "NOTE: the other thread did not run while stepping (no time slicing in this build?):"
	grep -E '^ +[0-9]+ +(runnable|blocked) ' "$T/out" | sed 's/^/    | /'
fi

# ---- `__thread` variables: gdb 13 cannot read them in a static musl
# program (it wants libthread_db); the extension computes their address
# from each thread's thread pointer.  Each worker N (green thread N, 2-5)
# and main (1) print "tls N VAR ADDR VALUE" for every variable; the
# addresses gdb computes must be those, for every thread and variable, and
# the values shown for a thread must be its own.
TVARS="tls_id tls_c tls_long tls_d tls_pt tls_page tls_static"
for bm in $builds; do
	build=${bm%:*} mode=${bm#*:}
	TPROG=$P/gdbtls-$build
	set --
	for n in 1 2 3 4 5; do
		for v in $TVARS; do
			set -- "$@" -ex "printf \"at $n $v %p\\n\", &\$green_tls(\"$v\", $n)"
		done
	done
	gdb_batch $mode -ex 'break stop_here' -ex run \
		-ex 'echo T0=' -ex 'green-print tls_id' \
		-ex 'echo T0=' -ex 'green-print tls_pt.tag' \
		-ex 'green-thread 3' \
		-ex 'echo T3=' -ex 'green-print tls_id' \
		-ex 'echo T3=' -ex 'green-print/x tls_long' \
		-ex 'echo T3=' -ex 'green-print tls_pt' \
		-ex 'echo T3=' -ex 'green-print tls_page[sizeof tls_page - 1]' \
		-ex 'echo T3=' -ex 'green-print $green_tls("tls_static") + tls_static' \
		-ex 'green-thread 5' \
		-ex 'echo T5=' -ex 'green-print tls_id * 10 + tls_c' \
		-ex 'echo T5=' -ex 'green-print tls_d' \
		-ex 'echo T5=' -ex 'print $green_tls("tls_page")' \
		-ex 'echo T5=' -ex 'print $green_tls("tls_id", 2)' \
		-ex 'green-thread apply 2 4 green-print tls_static' \
		-ex 'green-thread current' \
		-ex 'echo T1=' -ex 'green-print tls_long' \
		-ex 'echo T1=' -ex 'green-print tls_missing' \
		"$@" -ex continue --args "$TPROG"
	m="gdb __thread ($mode stacks)"
	[ $build = green ] || m="gdb __thread ($build, $mode stacks)"
	if ! grep -q '^parked 4$' "$T/out"; then
		fail "$m: the program did not reach stop_here with 4 workers parked"
		show
		continue
	fi
	expect "$m: the running thread's variable" '^T0=\$[0-9]+ = 1$'
	expect "$m: the running thread's struct member" '^T0=\$[0-9]+ = "pt1\\000'
	expect "$m: thread 3's int" '^T3=\$[0-9]+ = 3$'
	expect "$m: thread 3's long, with a format" '^T3=\$[0-9]+ = 0x2dc6c7$'
	expect "$m: thread 3's struct" '^T3=\$[0-9]+ = \{x = 30, y = -30, tag = "pt3\\000'
	expect "$m: the end of thread 3's page-aligned array" "^T3=\\\$[0-9]+ = 68 'D'\$"
	expect "$m: \$green_tls and a static __thread" '^T3=\$[0-9]+ = 606$'
	expect "$m: thread 5's variables in one expression" '^T5=\$[0-9]+ = 152$'
	expect "$m: thread 5's double" '^T5=\$[0-9]+ = 5.25$'
	expect "$m: thread 5's array" '^T5=\$[0-9]+ = "page of 5", '
	expect "$m: \$green_tls of a thread by number" '^T5=\$[0-9]+ = 2$'
	expect "$m: green-thread apply" '^\$[0-9]+ = 304$'
	expect "$m: back on the running thread" '^T1=\$[0-9]+ = 1000007$'
	expect "$m: an unknown variable" '^T1=No symbol "tls_missing" in current context\.$'
	sed -n 's/^tls \([0-9]\) \([a-z_]*\) \(0x[0-9a-f]*\) .*/\1 \2 \3/p' "$T/out" |
		grep -v ' tls_local ' | sort >"$T/want"
	sed -n 's/^at \([0-9]\) \([a-z_]*\) \(0x[0-9a-f]*\)$/\1 \2 \3/p' "$T/out" | sort >"$T/got"
	if [ "$(wc -l <"$T/want")" -eq 35 ] && cmp -s "$T/want" "$T/got"; then
		pass "$m: the addresses of 7 variables in 5 threads are the program's"
	else
		fail "$m: the addresses differ (-: the program's, +: gdb's)"
		diff "$T/want" "$T/got" | sed 's/^/    | /'
	fi
	expect "$m: the program then runs to its end" '^done$'
done

finish
