#!/bin/sh
# cxx-gdb.sh — the gdb extension (docs/debugging.md) on a C++ program
# (tests/cxx/gdbpark.cc): three std::threads parked in a std::mutex, a
# std::condition_variable and sleep_for, each inside a member function of
# park::Worker; stopped in stop_here, each one's backtrace must show that
# member function and reach the thread's start (__green_arch_start) with
# no "Backtrace stopped"; in both stack modes.
. "$GREEN_SRC/tests/lib.sh"
GDB=${GDB:-}
PROG=$B/tests/cxx/gdbpark-green
[ -x "$PROG" ] || { echo "SKIP: green-c++ is not built here (docs/cxx.md)"; exit 77; }
[ -z "$GREEN_RUN" ] || { echo "SKIP: gdb cannot look inside a cross build"; exit 77; }
if [ -z "$GDB" ] || ! "$GDB" -nx -batch -ex 'python print("py-ok")' 2>/dev/null | grep -q py-ok; then
	echo "SKIP: no gdb with Python"
	exit 77
fi
scratch cxx-gdb
timeout_of 120

for mode in separate copied; do
	m="gdb C++ ($mode stacks)"
	$TO env GREEN_STACKS=$mode GREEN_QUANTUM_MS=0 "$GDB" -nx -batch \
		-iex "add-auto-load-safe-path $S/gdb" \
		-ex 'break stop_here' -ex run -ex 'info green-threads' \
		-ex 'green-thread apply all bt' -ex continue \
		--args "$PROG" >"$T/out" 2>&1
	if ! grep -q '^parked 3$' "$T/out"; then
		fail "$m: the program did not reach stop_here with 3 threads parked"
		sed 's/^/    | /' "$T/out"
		continue
	fi
	for tf in cxx-mutex:wait_mutex cxx-cond:wait_cond cxx-sleep:wait_sleep; do
		t=${tf%%:*} f=${tf#*:}
		awk -v n="\"$t\"" '/^Green thread / { on = index($0, n) > 0; next } /^\[/ { on = 0 } on' \
			"$T/out" >"$T/sec"
		if grep -Eq "^#[0-9]+ +(0x[0-9a-f]+ in )?park::Worker::$f( |\\()" "$T/sec" &&
		   grep -q '__green_arch_start ()' "$T/sec" && ! grep -q 'Backtrace stopped' "$T/sec"; then
			pass "$m: $t's backtrace goes through park::Worker::$f to the thread's start"
		else
			fail "$m: $t's backtrace does not show park::Worker::$f down to __green_arch_start"
			sed 's/^/    | /' "$T/sec"
		fi
	done
	if grep -Eq '^\[Inferior 1 \(process [0-9]+\) exited normally\]$' "$T/out"; then
		pass "$m: the program then runs to its end"
	else
		fail "$m: the program did not end normally"
		tail -20 "$T/out" | sed 's/^/    | /'
	fi
done
finish
