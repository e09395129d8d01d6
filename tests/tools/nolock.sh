#!/bin/sh
# nolock.sh — no bus-locked instruction on the fast paths (x86_64).
#
# On one kernel thread nothing runs beside green's code but a signal
# handler on the same CPU, and a signal arrives between instructions, so
# a single read-modify-write instruction is atomic against it already; a
# `lock` prefix (or an xchg with memory, which locks by itself) buys
# nothing and costs some twenty cycles (docs/fastpaths.md).  This scans
# the disassembly of the functions below in libgreen.a, the objects
# green puts into the libc, and fails on any such instruction in them,
# and on a function of the list that is not there (the list went stale).
# Process-shared objects need real atomics: their paths are functions of
# their own, not on the list.
. "$GREEN_SRC/tests/lib.sh"
[ "$GREEN_ARCH" = x86_64 ] || { echo "SKIP: the scan knows x86_64's bus-locked instructions"; exit 77; }
[ -n "${OBJDUMP:-}" ] || { echo "SKIP: no objdump"; exit 77; }

# member (libgreen_a-MEMBER.o): functions, as the symbol table names them
FAST='
sched: sched_yield yield_busy yield_busy_pending yield __green_yield __green_ready __green_wake __green_wake_first __green_block __green_wait __green_wait_first __green_idle_until_runnable __green_woke_idling __green_park
switch: __green_switch __green_switch_landed
context: __green_arch_switch
copied: __green_copied_load
queue: __gq_insert __gq_pop_any __gq_remove
mutex: __pthread_mutex_lock __pthread_mutex_trylock __pthread_mutex_unlock lock unlock __green_mutex_acquire __green_mutex_release __green_mutex_own
cond: pthread_cond_signal pthread_cond_broadcast pthread_cond_wait __pthread_cond_timedwait __green_cond_signal __green_cond_wait signal_queued signal_queued_rest release_block wait_end
sem: sem_post sem_wait
preempt: __green_preempt_now __green_leave
create: __green_thread_start
'

"$OBJDUMP" -d --no-show-raw-insn "$B/libgreen.a" | awk -v fast="$FAST" '
BEGIN {
	n = split(fast, lines, "\n")
	for (i = 1; i <= n; i++) {
		if (split(lines[i], w, " ") < 2) continue
		m = w[1]; sub(":", "", m)
		for (j = 2; j in w; j++) { want[m ":" w[j]] = 1; nwant++ }
		delete w
	}
}
/^libgreen_a-.*\.o:/ { member = $1; sub(/^libgreen_a-/, "", member); sub(/\.o:$/, "", member); fn = ""; next }
/^[0-9a-f]+ <[^>]+>:$/ {
	fn = $2; gsub(/[<>:]/, "", fn)
	key = member ":" fn
	if (key in want) { seen[key] = 1; scan = 1 } else scan = 0
	next
}
scan && (/\tlock / || /\txchg +[^\t]*\(/) { print "FAIL: " key ": " $0; bad++ }
END {
	for (k in want) if (!(k in seen)) { print "FAIL: " k " is not in libgreen.a (stale list?)"; bad++ }
	if (!bad) printf "PASS: no lock-prefixed instruction or xchg with memory in %d fast-path functions\n", nwant
	exit bad != 0
}'
