#!/bin/sh
# The Check suites in green mode with a 1 ms quantum: preemption lands
# inside the library and the tests many times more often than at the
# default quantum (check-green.sh runs them cooperatively).  Natively, then
# again at 50 us with separate stacks and 20 us with copied ones: as
# densely as a 1 ms quantum ticks under qemu-user, which runs the same
# code tens of times more slowly, so that ticks land in the short
# windows a native 1 ms run rarely hits (docs/preemption.md).
# Natively the aio suite runs first on the worker threads that stand in
# for io_uring (lib.sh); under qemu-user they are what it runs on anyway.
# The suites that wait on descriptors run again on the epoll and poll
# backends at 1 ms (lib.sh).
. "$GREEN_SRC/tests/lib.sh"
# Under qemu-user: the whole 1 ms run, then the rwlock suite ten times
# at 50 us, whose tests catch a load moved outside a no-preempt section
# (docs/scheduler.md) and a process-shared reader that stops counting
# as a waiter between two looks at the lock word (rwlock.c).
if [ -n "$GREEN_RUN" ]; then
	st=0
	GREEN_QUANTUM_MS=1 $GREEN_RUN "$B/tests/runner-green" || st=1
	for i in 1 2 3 4 5 6 7 8 9 10; do
		GREEN_QUANTUM_MS=0.05 $GREEN_RUN "$B/tests/runner-green" rwlock >"$B/tests/rwlock-dense.out" 2>&1 ||
			{ cat "$B/tests/rwlock-dense.out"; echo "rwlock at 50 us: run $i of 10 failed"; st=1; break; }
	done
	echo "rwlock suite at 50 us: $i runs"
	exit $st
fi
st=0
aio_on_workers 1 || st=1
io_backends 1 || st=1
for run in "GREEN_QUANTUM_MS=1" "GREEN_QUANTUM_MS=0.05" "GREEN_STACKS=copied GREEN_QUANTUM_MS=0.02"; do
	echo "== $run"
	env GREEN_DEBUG=checks $run "$B/tests/runner-green" || st=1
done
exit $st
