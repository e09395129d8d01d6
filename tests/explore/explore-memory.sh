#!/bin/sh
# green-cc --sched-points=memory (docs/scheduler.md): a race inside one
# basic block (tests/explore/counter.c) is found by green-explore in
# random and PCT mode, with separate and copied stacks, and replays with
# the same hash; built with points at basic blocks only it is not found.
# A flag published before its data and awaited by a call-free spin loop
# (tests/explore/publish.c) is found by random and livelocks no PCT run.
# The library answers every entry point GCC's -fsanitize=thread emits.
# Where the mode is not built (x86_64 only for now): skipped, 77.
. "$GREEN_SRC/tests/lib.sh"
X="$B/bin/green-explore"
if [ -z "$GREEN_EXPLORE_MEMORY" ]; then
	echo "SKIP: --sched-points=memory is not built for $GREEN_ARCH"
	exit 77
fi
for stacks in separate copied; do
	for mode in random pct; do
		find_and_replay "counter ($mode, $stacks, memory points)" "$B/tests/explore/counter-green" $mode $stacks
	done
	# a spin on an atomic load with no call in it: random finds the bug;
	# PCT never livelocks on it (the loop is recognised as spinning and
	# demoted), whether or not its 300 runs find the one order
	find_and_replay "publish (random, $stacks, memory points)" "$B/tests/explore/publish-green" random $stacks
	out=$(GREEN_STACKS=$stacks $X -q -n $EXPLORE_RUNS --strategy=pct -- "$B/tests/explore/publish-green")
	if printf '%s\n' "$out" | grep -q 'timed out'; then
		fail "publish (pct, $stacks, memory points): a spin loop livelocked a schedule"
		printf '%s\n' "$out" | head -5
	else
		pass "publish (pct, $stacks, memory points): no schedule livelocks"
	fi
done
# points at basic blocks only: the load and the store of counter's
# increment share a block
for mode in random pct; do
	opt=--strategy=$mode
	out=$($X -q -n $EXPLORE_RUNS $opt -- "$B/tests/explore/counter-blocks")
	case $out in
	*"$EXPLORE_RUNS runs, 0 failures"*) pass "counter ($mode, block points): unreachable, as designed" ;;
	*) fail "counter ($mode, block points): found without memory points?"; printf '%s\n' "$out" | head -5 ;;
	esac
done
# every __tsan_ entry point the compiler emits for accesses of each size,
# atomics of each width and operation, fences and ranges is defined by
# the library (the link fails otherwise), and the atomics still work
scratch explore-memory
d=$T
cat > "$d/all.c" <<'EOC'
#include <stdint.h>
#include <string.h>
struct big { char b[64]; };
#define ATOMICS(T) { static T v; T e = 0; \
	__atomic_store_n(&v, 1, __ATOMIC_RELEASE); __atomic_load_n(&v, __ATOMIC_ACQUIRE); \
	__atomic_exchange_n(&v, 2, __ATOMIC_ACQ_REL); __atomic_fetch_add(&v, 3, __ATOMIC_RELAXED); \
	__atomic_fetch_sub(&v, 1, __ATOMIC_SEQ_CST); __atomic_fetch_and(&v, 7, __ATOMIC_SEQ_CST); \
	__atomic_fetch_or(&v, 8, __ATOMIC_SEQ_CST); __atomic_fetch_xor(&v, 1, __ATOMIC_SEQ_CST); \
	__atomic_fetch_nand(&v, 0, __ATOMIC_SEQ_CST); \
	__atomic_compare_exchange_n(&v, &e, 5, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	__atomic_compare_exchange_n(&v, &e, 6, 1, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	if (v != 6) return 1; }
int main(int argc, char **argv)
{
	static volatile uint8_t a1; static uint16_t a2; static uint32_t a4; static uint64_t a8;
	static __int128 a16; static struct big x, y;
	char buf[8];
	a1 = argc; a2 += a1; a4 += a2; a8 += a4; a16 += a8;
	memcpy(buf, argv[0], 2);
	__builtin_memcpy(&a4, buf + 1, 4);
	x = y;
	ATOMICS(uint8_t) ATOMICS(uint16_t) ATOMICS(uint32_t) ATOMICS(uint64_t)
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return a16 == 12345 ? 2 : 0;
}
EOC
if "$B/bin/green-cc" --sched-points=memory -O1 -o "$d/all" "$d/all.c" 2>"$d/err" &&
   GREEN_SCHED=random:1 "$d/all" 2>/dev/null; then
	n=$(nm "$d/all" | grep -c ' T __tsan_')
	pass "every __tsan_ entry point the compiler emits links, atomics work ($n defined)"
else
	fail "the instrumented program does not link or run"
	cat "$d/err"
fi
# the mode is refused where it does not apply
msg=$("$B/bin/green-cc" --threads=1to1 --sched-points=memory -o "$d/x" "$d/all.c" 2>&1)
case $? in
2) pass "--sched-points=memory with --threads=1to1 refused" ;;
*) fail "--sched-points=memory with 1:1: $msg" ;;
esac
finish
