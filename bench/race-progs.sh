#!/bin/sh
# race-progs.sh — what `green-cc --race` costs on real programs, against
# gcc's ThreadSanitizer on glibc (docs/race.md#cost).
#
#   bench/race-progs.sh BUILDDIR [pigz] [zstd] [churn]
#
# Fetches Debian's zlib, pigz and libzstd source packages into
# BUILDDIR/bench/race-progs/src (apt-get source, deb-src enabled by
# tools/debsrc.sh; pigz from trixie when bookworm's is no longer in the
# archive), and builds pigz (with its own zlib) and zstd four ways: green
# plain, green --race, and with the system's gcc and glibc, plain and
# with -fsanitize=thread (each detector instruments the same code:
# zlib and libzstd included).  The input is a tar of the three source
# trees, repeated to 16 MiB.  Each workload runs once per build, pinned
# to one CPU (BENCH_CPU, default the highest online one):
#
#   pigz   pigz -p 4 -9, four compressing threads and a writer
#   zstd   zstd -T4 -9, four workers
#   churn  tests/race/churn.c: 64 KiB blocks allocated, filled and freed
#          in turn, 2000 times; then 16 MiB blocks, 40 times
#
# and prints, per workload and build, the CPU time (user + system, from
# /usr/bin/time) and the maximum resident size, then the ratios of each
# detector to its plain build and of green --race to ThreadSanitizer,
# with the load average before and after.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 BUILDDIR [pigz] [zstd] [churn]" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
b=$(cd "$1" && pwd)
shift
what=${*:-pigz zstd churn}
top=$b/bench/race-progs
mkdir -p "$top/src"
cpu=${BENCH_CPU:-$(($(getconf _NPROCESSORS_ONLN) - 1))}
. "$src/tools/debsrc.sh"

# fetch PACKAGE DIR-GLOB: the unpacked source, bookworm's, else trixie's
fetch() {
	d=$(ls -d "$top/src"/$2 2>/dev/null | head -1)
	if [ -z "$d" ]; then
		enable_deb_src
		if ! (cd "$top/src" && apt-get source -qq "$1/bookworm" >/dev/null 2>&1); then
			f=/etc/apt/sources.list.d/green-deb-src-trixie.sources
			if [ ! -f "$f" ]; then
				say "enabling trixie's source packages (bookworm's $1 is gone from the archive)" >&2
				printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
					as_root tee "$f" >/dev/null
				as_root apt-get update -qq
			fi
			(cd "$top/src" && apt-get source -qq "$1/trixie" >/dev/null 2>&1) || :
		fi
		d=$(ls -d "$top/src"/$2 2>/dev/null | head -1)
	fi
	if [ -z "$d" ]; then
		echo "$0: cannot fetch the source package $1" >&2
		return 1
	fi
	echo "$d"
}

cc_of() {   # the compiler and flags of a build kind
	case $1 in
	plain) echo "$b/bin/green-cc -O2" ;;
	race) echo "$b/bin/green-cc --race -O2 -g" ;;
	glibc) echo "gcc -O2" ;;
	tsan) echo "gcc -fsanitize=thread -O2 -g" ;;
	esac
}
kinds="plain race glibc tsan"

build_pigz() {
	zlib=$(fetch zlib 'zlib-*') && pigz=$(fetch pigz 'pigz-*') || exit 1
	for k in $kinds; do
		o=$top/$k
		[ -x "$o/pigz" ] && continue
		mkdir -p "$o/zlib"
		cc=$(cc_of $k)
		(cd "$o/zlib" && for f in adler32 crc32 deflate infback inffast inflate inftrees trees zutil \
		                        compress uncompr gzclose gzlib gzread gzwrite; do
			$cc -DHAVE_UNISTD_H -DHAVE_STDARG_H -c "$zlib/$f.c" || exit 1
		done && ar rcs libz.a *.o)
		$cc -DNOZOPFLI -I"$zlib" -o "$o/pigz" "$pigz/pigz.c" "$pigz/yarn.c" "$pigz/try.c" \
			"$o/zlib/libz.a" -lm -lpthread
	done
}

build_zstd() {
	zstd=$(fetch libzstd 'libzstd-*') || exit 1
	for k in $kinds; do
		o=$top/$k
		[ -x "$o/zstd" ] && continue
		rm -rf "$o/zstd-tree"
		mkdir -p "$o"
		cp -a "$zstd" "$o/zstd-tree"
		cc=$(cc_of $k)
		make -s -C "$o/zstd-tree/programs" zstd CC="${cc%% *}" MOREFLAGS="${cc#* }" \
			HAVE_ZLIB=0 HAVE_LZMA=0 HAVE_LZ4=0 HAVE_THREAD=1 >/dev/null
		cp "$o/zstd-tree/programs/zstd" "$o/zstd"
	done
}

build_churn() {
	for k in $kinds; do
		o=$top/$k
		mkdir -p "$o"
		[ -x "$o/churn" ] || $(cc_of $k) -o "$o/churn" "$src/tests/race/churn.c"
	done
}

input() {
	[ -f "$top/input" ] && return 0
	tar -cf "$top/one.tar" -C "$top/src" $(cd "$top/src" && ls -d zlib-* pigz-* libzstd-* 2>/dev/null)
	: >"$top/input"
	while [ "$(wc -c <"$top/input")" -lt 16777216 ]; do cat "$top/one.tar" >>"$top/input"; done
	head -c 16777216 "$top/input" >"$top/input.16" && mv "$top/input.16" "$top/input"
	rm -f "$top/one.tar"
}

# m WORKLOAD KIND CMD...: "WORKLOAD KIND cpu=SECONDS rss=KB"
m() {
	label="$1 $2"
	shift 2
	if ! /usr/bin/time -f "%U %S %M" -o "$top/time" taskset -c "$cpu" "$@" >/dev/null 2>"$top/err"; then
		echo "$label: failed"
		tail -3 "$top/err"
		return 0
	fi
	set -- $(tail -1 "$top/time")
	echo "$label cpu=$(echo "$1 + $2" | bc) rss=$3" | tee -a "$top/results"
}

for w in $what; do
	case $w in
	pigz) build_pigz ;;
	zstd) build_zstd ;;
	churn) build_churn ;;
	*) echo "$0: unknown workload $w" >&2; exit 2 ;;
	esac
done
input
: >"$top/results"
echo "load before: $(uptime)"
for w in $what; do
	for k in $kinds; do
		case $w in
		pigz) m "pigz -p4 -9" $k "$top/$k/pigz" -p 4 -9 -c "$top/input" ;;
		zstd) m "zstd -T4 -9" $k "$top/$k/zstd" -T4 -9 -c "$top/input" ;;
		churn) m "churn 64KiB x2000" $k "$top/$k/churn" 65536 2000
		       m "churn 16MiB x40" $k "$top/$k/churn" 16777216 40 ;;
		esac
	done
done
echo "load after: $(uptime)"

# the ratios: each detector to its plain build, green --race to TSan
awk '
{ w = $0; sub(/ (plain|race|glibc|tsan) cpu=.*/, "", w); k = $(NF - 2)
  split($(NF - 1), c, "="); split($NF, r, "="); cpu[w, k] = c[2]; rss[w, k] = r[2]
  if (!(w in seen)) { seen[w] = 1; order[n++] = w } }
END {
  printf "%-20s %26s %26s %22s\n", "workload", "green --race / plain", "TSan / glibc", "--race / TSan"
  for (i = 0; i < n; i++) {
    w = order[i]
    printf "%-20s %11.1fx cpu %6.1fx mem %11.1fx cpu %6.1fx mem %8.2fx cpu %5.2fx mem\n", w,
      cpu[w, "race"] / (cpu[w, "plain"] ? cpu[w, "plain"] : 0.01), rss[w, "race"] / rss[w, "plain"],
      cpu[w, "tsan"] / (cpu[w, "glibc"] ? cpu[w, "glibc"] : 0.01), rss[w, "tsan"] / rss[w, "glibc"],
      cpu[w, "race"] / (cpu[w, "tsan"] ? cpu[w, "tsan"] : 0.01), rss[w, "race"] / rss[w, "tsan"]
  }
}' "$top/results"
