#!/bin/sh
# fileio.sh — regular-file I/O in a program that has threads is stock
# musl's: under strace, the green build of tests/prog/fileio.c makes the
# same read and write calls on the file as the 1:1 build (one call per
# block, never cut into pieces) and no poll or select on it, on the
# build directory's filesystem and on $TMPDIR's (which may be another:
# tmpfs and ext4 answer RWF_NOWAIT differently).  Both builds write the
# same bytes.  And a number that named a file and then names a pipe
# waits like a pipe (fileio reuse, without time slicing: a stale
# "regular file" would block the process for good).
. "$GREEN_SRC/tests/lib.sh"
STRACE=${STRACE:-}
P=$B/tests/prog
MIB=8
D1=$(mktemp -d "$B/tests/fileio.XXXXXX") || exit 1
D2=$(mktemp -d "${TMPDIR:-/tmp}/green-fileio.XXXXXX") || exit 1
trap 'rm -rf "$D1" "$D2"' EXIT
trap 'exit 1' INT TERM
TO=
command -v timeout >/dev/null 2>&1 && TO="timeout 60"

# fstype DIR: the filesystem's name, for the messages
fstype() {
	stat -f -c %T "$1" 2>/dev/null || echo "?"
}

# run WHAT [WRAPPER...] PROGRAM ARGS: passes when it prints "fileio ok"
run() {
	what=$1
	shift
	out=$($TO "$@" 2>"$D1/err")
	st=$?
	if [ "$st" = 0 ] && [ "$out" = "fileio ok" ]; then
		pass "$what"
	else
		fail "$what: status $st, output '$out'"
		sed 's/^/    | /' "$D1/err"
	fi
}

# calls TRACE FDS: "name count" of the read and write calls on those
# descriptors, and of every poll or select that names one of them
calls() {
	sed 's/^[0-9][0-9]*  *//' "$1" | awk -v fds=" $2 " '
		/^(read|readv|pread64|preadv|preadv2|write|writev|pwrite64|pwritev|pwritev2)\(/ {
			name = substr($0, 1, index($0, "(") - 1)
			fd = substr($0, index($0, "(") + 1)
			sub(/,.*/, "", fd)
			if (index(fds, " " fd " ")) n[name]++
		}
		/^(poll|ppoll|select|pselect6|_newselect)\(/ {
			name = substr($0, 1, index($0, "(") - 1)
			split(fds, f, " ")
			for (i in f)
				if ($0 ~ ("fd=" f[i] ",") || $0 ~ ("[[ ]" f[i] "[] ]")) { n[name " on the file"]++; break }
		}
		END { for (k in n) print k, n[k] }' | sort
}

for dir in "$D1" "$D2"; do
	fs=$(fstype "$dir")
	for m in green 1to1; do
		run "fileio-$m $MIB MiB on $fs: contents" $GREEN_RUN "$P/fileio-$m" "$dir/data-$m" $MIB
	done
	if cmp -s "$dir/data-green" "$dir/data-1to1"; then
		pass "fileio on $fs: both builds wrote the same bytes"
	else
		fail "fileio on $fs: the files differ"
	fi
	if [ -n "$GREEN_RUN" ]; then
		echo "SKIP: fileio system calls on $fs (strace cannot see inside \$GREEN_RUN's emulation)"
		continue
	elif [ -z "$STRACE" ]; then
		echo "SKIP: fileio system calls on $fs (strace not installed)"
		continue
	fi
	for m in green 1to1; do
		$TO $STRACE -f -qq -o "$D1/strace-$m" "$P/fileio-$m" "$dir/data-$m" $MIB >/dev/null 2>"$D1/err-$m"
		fds=$(sed -n 's/^[a-z]* fd \([0-9][0-9]*\)$/\1/p' "$D1/err-$m" | sort -u | tr '\n' ' ')
		calls "$D1/strace-$m" "$fds" >"$D1/calls-$m"
	done
	if [ ! -s "$D1/calls-1to1" ]; then
		fail "fileio on $fs: strace recorded no file I/O"
		sed 's/^/    | /' "$D1/err-1to1"
	elif cmp -s "$D1/calls-green" "$D1/calls-1to1"; then
		pass "fileio-green on $fs: the file's reads and writes are stock musl's ($(tr '\n' ' ' <"$D1/calls-1to1"| sed 's/ $//'))"
	else
		fail "fileio-green on $fs: the file's system calls differ from stock musl's (< green, > 1to1)"
		diff "$D1/calls-green" "$D1/calls-1to1" | sed 's/^/    | /'
	fi
done

# a file's number reused by, or replaced with, a pipe waits like a pipe
for m in green 1to1; do
	run "fileio-$m reuse: a pipe on a file's old number parks only the caller" \
		env GREEN_QUANTUM_MS=0 $GREEN_RUN "$P/fileio-$m" reuse "$D1/reuse-$m"
done

finish
