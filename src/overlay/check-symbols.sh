#!/bin/sh
# check-symbols.sh — nothing of glibc's threads interface is left out by
# accident.  Every function glibc exports in the threads, signal and sleep
# families must either be defined by libgreen-overlay.a (the program's call
# reaches green) or be listed, with its reason, in glibc-symbols.txt.  A
# listed name green now defines, or glibc no longer exports, is an error
# too: the list stays exact.
set -u
S=${GREEN_SRC:?run through make check}
LIB=${GREEN_OVERLAY_LIB:?run through make check}
NM=${NM:-nm}
LIBC=/usr/${GREEN_HOST:?run through make check}/lib/libc.so.6
LIST=$S/src/overlay/glibc-symbols.txt
T=$(mktemp -d "${TMPDIR:-/tmp}/green-syms.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

if [ ! -f "$LIBC" ]; then
	echo "SKIP: $LIBC not found"
	exit 77
fi
PATTERN='^(pthread_|__pthread_|sem_|thrd_|mtx_|cnd_|tss_|call_once$|sig|nanosleep$|clock_nanosleep$|sleep$|usleep$|alarm$|ualarm$|sched_yield$|pause$|raise$|setitimer$|getitimer$|bsd_signal$|sysv_signal$|ssignal$|gsignal$|killpg$|kill$|_Fork$|fork$|vfork$|posix_spawn|system$|popen$|pclose$|wait|select$|pselect$|poll$|ppoll$)'
$NM -D --defined-only "$LIBC" | awk '$2 ~ /^[TWiV]$/ { sub(/@.*/, "", $3); print $3 }' |
	grep -E "$PATTERN" | sort -u > "$T/glibc"
$NM --defined-only "$LIB" | awk '$2 ~ /^[TW]$/ { print $3 }' | sort -u > "$T/green"
grep -v '^#' "$LIST" | awk 'NF { print $1 }' | sort > "$T/listed"

fails=0
comm -12 "$T/glibc" "$T/green" > "$T/ours"
comm -23 "$T/glibc" "$T/green" > "$T/left"
for n in $(comm -23 "$T/left" "$T/listed"); do
	echo "FAIL: glibc's $n reaches neither green nor glibc-symbols.txt"
	fails=$((fails + 1))
done
for n in $(comm -12 "$T/listed" "$T/green"); do
	echo "FAIL: $n is listed as glibc's but libgreen-overlay.a defines it"
	fails=$((fails + 1))
done
for n in $(comm -23 "$T/listed" "$T/glibc"); do
	echo "FAIL: $n is listed but glibc does not export it"
	fails=$((fails + 1))
done
echo "$(wc -l < "$T/glibc") glibc functions: $(wc -l < "$T/ours") green's," \
	"$(wc -l < "$T/left") glibc's ($(awk '$2 == "bypass"' "$LIST" | wc -l) not supported)"
[ $fails = 0 ] && echo "PASS: check-symbols"
[ $fails = 0 ]
