#!/bin/sh
# tp-syscalls.sh — m68k only: green's libc keeps the thread pointer in a
# word of its own (docs/ports.md), so however often a program with
# `__thread` variables switches, it makes no get_thread_area and no
# set_thread_area system call after the one set_thread_area of start-up
# (musl's __init_tp).  Counted in a system-call trace (qemu-m68k -strace,
# or strace on an m68k machine) of tests/prog/tlsswitch.c's 1000
# switches, with separate and copied stacks and at a 1 ms quantum.  And
# green's libc.a holds no get_thread_area call at all; the 1:1 libc's,
# stock musl's, does (which shows that the search would find one).
. "$GREEN_SRC/tests/lib.sh"
[ "${GREEN_ARCH:-}" = m68k ] || { echo "the thread pointer costs a system call only on m68k"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/green-tp.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
TO=
command -v timeout >/dev/null 2>&1 && TO="timeout 120"

P=$B/tests/prog/tlsswitch-green
# trace VAR=VALUE...: run P with these settings, its output to $T/out and
# its system-call trace to $T/trace
case ${GREEN_RUN:-} in
*qemu*) trace() { $TO env "$@" $GREEN_RUN -strace "$P" >"$T/out" 2>"$T/trace"; } ;;
'')     [ -n "${STRACE:-}" ] || { echo "no qemu-m68k and no strace: cannot trace"; exit 77; }
	trace() { $TO env "$@" "$STRACE" -f -o "$T/trace" "$P" >"$T/out"; } ;;
*)      echo "cannot trace under '$GREEN_RUN'"; exit 77 ;;
esac

# check WHAT VAR=VALUE...
check() {
	what="tlsswitch, $1"
	shift
	trace "$@"
	st=$?
	get=$(grep -c 'get_thread_area(' "$T/trace")
	set=$(grep -c 'set_thread_area(' "$T/trace")
	if [ $st = 0 ] && [ "$(cat "$T/out")" = "tlsswitch 1000 ok" ] && [ "$get" = 0 ] && [ "$set" = 1 ]; then
		pass "$what: no thread-area system call after start-up"
	else
		fail "$what: status $st, output '$(cat "$T/out")', get_thread_area $get, set_thread_area $set (want 0 and 1)"
	fi
}
check "separate stacks" GREEN_STACKS=separate GREEN_QUANTUM_MS=0
check "copied stacks" GREEN_STACKS=copied GREEN_QUANTUM_MS=0
check "1 ms quantum" GREEN_STACKS=separate GREEN_QUANTUM_MS=1

# the get_thread_area system call: its number loaded into d0 for trap #0
nr=$(sed -n 's/^#define __NR_get_thread_area[[:space:]]*//p' "$B/musl/obj/include/bits/syscall.h")
if [ -z "${OBJDUMP:-}" ] || [ -z "$nr" ]; then
	echo "no objdump or no system-call number: the libc.a check is skipped"
else
	for m in green 1to1; do
		"$OBJDUMP" -d "$B/lib/$m/libc.a" 2>/dev/null | grep -c "movel #$nr,%d0" > "$T/n.$m"
	done
	g=$(cat "$T/n.green") o=$(cat "$T/n.1to1")
	if [ "$g" = 0 ] && [ "$o" -gt 0 ]; then
		pass "green's libc.a makes no get_thread_area call (the 1:1 libc.a: $o)"
	else
		fail "get_thread_area calls: green's libc.a $g (want 0), the 1:1 libc.a $o (want some)"
	fi
fi
finish
