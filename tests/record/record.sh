#!/bin/sh
# green-record and green-replay (docs/record.md): a run of tests/record/rrmix
# — threads sliced at 1 ms, a TCP server and clients on the loopback, a
# file of random bytes, signals from a child and from an interval timer,
# the clocks, rdtsc and rdtscp — is recorded once, then replayed ten times: every replay
# prints the same output and the same summary (events, points, signals
# taken, and a hash over the schedule and every result), with separate
# and with copied stacks, under a seeded schedule, and linked dynamically;
# then thirty more recordings, each replayed once.  A replay of a
# program that is not the recorded one stops at the first divergence and
# names both sides.  On another CPU: GREEN_RECORDING and green-record refuse.
. "$GREEN_SRC/tests/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if [ "$GREEN_ARCH" != x86_64 ]; then
	# elsewhere a program started to record refuses, and the launcher too
	P="$B/tests/prog/nothreads-green"
	[ -x "$P" ] || { echo "SKIP: green-record is x86_64's (docs/record.md)"; exit 77; }
	st=0; GREEN_RECORDING=record $GREEN_RUN "$P" >/dev/null 2>"$T/err" || st=$?
	if [ $st = 125 ] && grep -q "run on x86_64 only" "$T/err"; then
		pass "GREEN_RECORDING on $GREEN_ARCH: refused, exit 125, with a message"
	else
		fail "GREEN_RECORDING on $GREEN_ARCH: exit $st"; sed 's/^/  | /' "$T/err" | head -3
	fi
	st=0; "$B/bin/green-record" -o "$T/trace" -- "$P" >/dev/null 2>"$T/err" || st=$?
	if [ $st != 0 ] && grep -q "records x86_64 programs only" "$T/err"; then
		pass "green-record refuses a $GREEN_ARCH program"
	else
		fail "green-record and a $GREEN_ARCH program: exit $st"; sed 's/^/  | /' "$T/err" | head -3
	fi
	finish
	exit
fi
[ -z "$GREEN_RUN" ] || { echo "SKIP: Syscall User Dispatch is the kernel's, not $GREEN_RUN's"; exit 77; }
REC="$B/bin/green-record" REP="$B/bin/green-replay" P="$B/tests/record/rrmix-green"
cp "$P" "$T/rrmix"
cd "$T"
PROG=./rrmix
if "$REC" -o probe.trace -- ./rrmix >/dev/null 2>probe.err; then :; else
	if grep -q "needs Syscall User Dispatch" probe.err; then
		echo "SKIP: this kernel has no Syscall User Dispatch"; exit 77
	fi
fi

summary() { grep -o '[0-9]* events, [0-9]* points, [0-9]* signals, hash [0-9a-f]*' "$1"; }

# round NAME ENV...: record once, replay ten times
round() {
	name=$1; shift
	if ! env "$@" "$REC" -o "$name.trace" -- $PROG >"$name.out" 2>"$name.err"; then
		fail "$name: the recorded run failed"; sed 's/^/  | /' "$name.err" | tail -5; return
	fi
	want=$(summary "$name.err")
	sigs=$(printf '%s\n' "$want" | sed 's/.* \([0-9]*\) signals.*/\1/')
	if [ -z "$want" ] || [ "$sigs" -lt 1 ]; then
		fail "$name: no summary, or no signal taken at a point: $want"; return
	fi
	same=0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		"$REP" "$name.trace" >"$name.rep" 2>"$name.reperr"
		if cmp -s "$name.out" "$name.rep" && [ "$(summary "$name.reperr")" = "$want" ]; then
			same=$((same + 1))
		else
			diff "$name.out" "$name.rep" | head -5
			grep -A1 divergence "$name.reperr" | head -4
		fi
	done
	if [ $same = 10 ]; then
		pass "$name: 10 of 10 replays match the recording ($want)"
	else
		fail "$name: $same of 10 replays match the recording ($want)"
	fi
}
round separate GREEN_QUANTUM_MS=1
# every call of the libc reaches the recorder as a function call, the
# sockets' reads and writes too: a recorded run keeps its threads off
# the fast I/O paths, whose calls skip the recorder's test and would
# each be a SIGSYS (GREEN_SLOW_RECORD, docs/record.md)
"$REC" --events calls.ev -o calls.trace -- $PROG >calls.out 2>calls.err
io=$(grep -cE '^event [0-9]+: thread [0-9]+ (recvfrom|sendto) ' calls.ev)
trapped=$(grep -E '^event [0-9]+: thread [0-9]+ (recvfrom|sendto|read|write) .*\(trapped\)' calls.ev | wc -l)
if [ "$io" -gt 0 ] && [ "$trapped" = 0 ]; then
	pass "recorded: $io socket reads and writes, every one a call to the recorder, none trapped"
else
	fail "recorded: $io socket reads and writes, $trapped of them trapped (a thread on a fast I/O path)"
fi
round copied GREEN_QUANTUM_MS=1 GREEN_STACKS=copied
round seeded GREEN_SCHED=random:7
# many recordings, each replayed once: a signal that arrives while the
# handler of one sent at a point makes system calls (the tick's) is
# sent at the next point, not where the first point's loop goes on
# under a later point's number (docs/record.md); one recording in about
# twenty, on a loaded machine, caught it so before that was so
bad=0
for i in $(seq 30); do
	GREEN_QUANTUM_MS=1 "$REC" -o many.trace -- $PROG >many.out 2>many.err || { bad=$((bad + 1)); continue; }
	"$REP" many.trace >many.rep 2>many.reperr
	if ! cmp -s many.out many.rep || [ "$(summary many.reperr)" != "$(summary many.err)" ]; then
		bad=$((bad + 1))
		grep -A1 divergence many.reperr | head -2
	fi
done
if [ $bad = 0 ]; then pass "30 recordings, each replayed once, match"
else fail "$bad of 30 recordings did not replay alike"; fi
# output to a pipe (written with pwritev2 while recording) shows in the replay
"$REC" -o piped.trace -- ./rrmix 2>piped.err | cat >piped.out
"$REP" piped.trace 2>piped.reperr | cat >piped.rep
if [ -s piped.out ] && cmp -s piped.out piped.rep; then pass "output to a pipe is the same in the replay"
else fail "output to a pipe: the replay's differs"; diff piped.out piped.rep | head -5; fi
# the seeded schedule's own line is replayed too
a=$(grep -o "GREEN_SCHED=[^ ]* steps=[0-9]* hash=[0-9a-f]*" seeded.err | tail -1)   # the last: a forked child prints its own
b=$(grep -o 'GREEN_SCHED=[^ ]* steps=[0-9]* hash=[0-9a-f]*' seeded.reperr)
if [ -n "$a" ] && [ "$a" = "$b" ]; then pass "a seeded run replays to its decision hash ($a)"
else fail "seeded run: recorded '$a', replayed '$b'"; fi

# under gdb: the event counter, a stop at event N, a checkpoint, and a
# move back to an earlier event through it
if [ -n "${GDB:-}" ]; then
	cat >moves.gdb <<'EOC'
green-replay goto 100
bt
green-replay when
green-replay checkpoint
green-replay goto 300
green-replay when
green-replay goto 150
green-replay when
green-replay checkpoints
EOC
	"$REP" --gdb --batch -x moves.gdb separate.trace >moves.out 2>&1
	if grep -q '^event 100, point' moves.out && grep -q '^checkpoint 1 at event 100' moves.out &&
	   grep -q '^event 300, point' moves.out && grep -q '^event 150, point' moves.out; then
		pass "gdb: green-replay when, goto N, checkpoint, and back to an earlier event"
	else
		fail "gdb: the replay's moves"; grep -i 'event\|checkpoint\|error' moves.out | head -8
	fi
	# stopped in the recorder, gdb unwinds from it through the way in
	# from an inline system call (src/arch/x86_64/reccall.S) to the
	# thread's first frame: main, or a green thread's start
	if grep -q '^#[0-9]* .* in __green_rec_trampoline ' moves.out &&
	   grep -A30 '__green_rec_trampoline' moves.out | grep -q '^#[0-9]* .* in \(main\|run\) ('; then
		pass "gdb: a stop in the recorder unwinds to the thread's first frame"
	else
		fail "gdb: the backtrace from the recorder"; grep '^#' moves.out | head -12
	fi
fi

# threads that spin without a call, built with --sched-points: preempted
# at their blocks in the recording, at the same blocks in the replay (a
# recorded run takes even SIGTERM at a point: a hang needs SIGKILL)
cp "$B/tests/record/spin-green" spin
st=0; timeout -s KILL 120 env GREEN_QUANTUM_MS=1 "$REC" -o spin.trace -- ./spin >spin.out 2>spin.err || st=$?
want=$(summary spin.err)
if [ $st != 0 ] || [ -z "$want" ]; then
	fail "spin: the recorded run failed or did not end (status $st)"
else
	same=0
	for i in 1 2 3; do
		timeout -s KILL 120 "$REP" spin.trace >spin.rep 2>spin.reperr
		cmp -s spin.out spin.rep && [ "$(summary spin.reperr)" = "$want" ] && same=$((same + 1))
	done
	if [ $same = 3 ]; then pass "spin: preempted in its loops, 3 of 3 replays match ($(cat spin.out))"
	else fail "spin: $same of 3 replays match"; fi
fi

# a dynamically linked program (green's libc.so and loader, docs/dynamic.md)
if [ -x "$B/tests/record/rrmix-dyn" ]; then
	cp "$B/tests/record/rrmix-dyn" rrmix-dyn
	PROG=./rrmix-dyn
	round dynamic GREEN_QUANTUM_MS=1
	PROG=./rrmix
fi

# green-record --last: tests/record/ring runs 5 s (threads sliced at
# 1 ms, a file read, a pipe, an interval timer) and crashes; recorded with
# a window of 1 s, the trace keeps the last 1 to 2 s from a checkpoint.
# Every replay restores the checkpoint, prints the recording's last lines
# exactly and dies of the same fault with the same summary (events,
# points, signals, hash over the whole run); the trace is smaller than a
# full recording of the same 5 s by far.  A run shorter than the window
# is an ordinary trace, replayed from the start.
cp "$B/tests/record/ring-green" ring
head -c 65536 /dev/urandom >ring.bin
GREEN_QUANTUM_MS=1 "$REC" -o ringfull.trace -- ./ring 5 ring.bin crash >ringfull.out 2>ringfull.err || :
GREEN_QUANTUM_MS=1 "$REC" --last=1 -o ringlast.trace -- ./ring 5 ring.bin crash >ringlast.out 2>ringlast.err || :
want=$(summary ringlast.err)
end=$(grep -o 'ends with signal 11 (Segmentation fault), event [0-9]*' ringlast.err)
full=$(wc -c <ringfull.trace) last=$(wc -c <ringlast.trace)
if [ -z "$want" ] || [ -z "$end" ] || ! grep -q '^final state' ringlast.out; then
	fail "ring: the recorded run did not end with its crash"; sed 's/^/  | /' ringlast.err | tail -3
else
	same=0 first=
	for i in 1 2 3; do
		"$REP" --events ringlast.ev ringlast.trace >ringlast.rep 2>ringlast.reperr
		first=$(grep -m1 '^event ' ringlast.ev | sed 's/^event \([0-9]*\):.*/\1/')
		n=$(wc -c <ringlast.rep)
		if [ "$n" -gt 0 ] && [ "$n" -lt "$(wc -c <ringlast.out)" ] &&
		   tail -c "$n" ringlast.out | cmp -s - ringlast.rep && grep -q '^final state' ringlast.rep &&
		   [ "$(summary ringlast.reperr)" = "$want" ] && grep -q "$end" ringlast.reperr &&
		   [ "${first:-0}" -gt 0 ]; then
			same=$((same + 1))
		else
			grep -i 'divergence\|ring\|cannot' ringlast.reperr | head -4
		fi
	done
	if [ $same = 3 ]; then
		pass "ring: 3 of 3 replays from the checkpoint at event $first print the last $(wc -l <ringlast.rep) of $(wc -l <ringlast.out) lines and crash alike ($want)"
	else
		fail "ring: $same of 3 replays from the checkpoint match the recording's end"
	fi
fi
if [ $((last * 4)) -lt $((full * 3)) ]; then
	pass "ring: the trace of the last 1-2 s takes $last bytes, a full one of the 5 s $full"
else
	fail "ring: the trace of the last 1-2 s takes $last bytes, a full one of the 5 s $full"
fi
if [ -n "${GDB:-}" ] && [ -n "${first:-}" ]; then
	printf 'green-replay goto 1\ngreen-replay when\ngreen-replay goto %d\ngreen-replay when\ncontinue\n' \
		$((first + 20)) >ring.gdb
	"$REP" --gdb --batch -x ring.gdb ringlast.trace >ringgdb.out 2>&1
	if grep -q "^event $first, point" ringgdb.out && grep -q "^event $((first + 20)), point" ringgdb.out &&
	   grep -q 'SIGSEGV' ringgdb.out && grep -q 'in main .* at .*ring\.c:[0-9]' ringgdb.out; then
		pass "ring under gdb: goto 1 stops at the checkpoint's event $first, goto $((first + 20)), then on to the crash in main"
	else
		fail "ring under gdb"; grep -i 'event\|error\|SIGSEGV' ringgdb.out | head -6
	fi
fi
# linked dynamically, with copied stacks, to its exit: the same end
if [ -x "$B/tests/record/ring-dyn" ]; then
	cp "$B/tests/record/ring-dyn" ringdyn
	GREEN_STACKS=copied GREEN_QUANTUM_MS=1 "$REC" --last=1 -o ringdyn.trace -- ./ringdyn 3 ring.bin >ringdyn.out 2>ringdyn.err
	"$REP" ringdyn.trace >ringdyn.rep 2>ringdyn.reperr
	n=$(wc -c <ringdyn.rep)
	if [ -n "$(summary ringdyn.err)" ] && [ "$(summary ringdyn.reperr)" = "$(summary ringdyn.err)" ] &&
	   [ "$n" -gt 0 ] && [ "$n" -lt "$(wc -c <ringdyn.out)" ] && tail -c "$n" ringdyn.out | cmp -s - ringdyn.rep &&
	   grep -q '^final state' ringdyn.rep; then
		pass "ring: dynamic, copied stacks, to its exit: the replay prints the last $(wc -l <ringdyn.rep) of $(wc -l <ringdyn.out) lines alike"
	else
		fail "ring: dynamic, copied stacks: the replay differs"; tail -3 ringdyn.reperr
	fi
fi
"$REC" --last=60 -o short.trace -- ./rrmix >short.out 2>short.err
"$REP" short.trace >short.rep 2>short.reperr
if [ -n "$(summary short.err)" ] && [ "$(summary short.reperr)" = "$(summary short.err)" ] &&
   cmp -s short.out short.rep; then
	pass "ring: a run shorter than its window replays from the start"
else
	fail "ring: a run shorter than its window does not replay"; tail -3 short.reperr
fi

# a program that would not record itself is refused: kernel threads
if "$REC" -o onetoone.trace -- "$B/tests/prog/nothreads-1to1" >/dev/null 2>onetoone.err; then
	fail "a --threads=1to1 program was run as if recorded"
elif grep -q "is not a green program" onetoone.err; then
	pass "a --threads=1to1 program is refused with a message"
else
	fail "a --threads=1to1 program: no clear refusal"; sed 's/^/  | /' onetoone.err | head -3
fi

# a different program at the recorded path: the replay stops and says where
cat >other.c <<'EOC'
#include <unistd.h>
int main(void) { getppid(); return write(1, "other\n", 6) != 6; }
EOC
"$B/bin/green-cc" -o rrmix other.c
if "$REP" separate.trace >div.out 2>div.err; then
	fail "a replay of another program succeeded"
elif grep -q "divergence at event 0: the program calls getppid()" div.err &&
     grep -q "where the trace has" div.err; then
	pass "a replay of another program stops at its first divergence, naming both sides"
else
	fail "divergence: no clear message"; sed 's/^/  | /' div.err | head -5
fi
finish
