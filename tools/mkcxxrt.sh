#!/bin/sh
# mkcxxrt.sh GCC-SRC GREEN-BUILD PREFIX — build the C++ runtime of
# green-c++: libstdc++ (with libsupc++) from GCC-SRC, the unpacked gcc
# source of Debian's gcc-12 package, compiled against green's headers and
# musl's and configured for musl the way a musl cross toolchain builds
# its target libraries: only libstdc++-v3 is configured, as a library of
# the host x86_64-linux-musl, static only.  Installs into PREFIX
# (include/c++/VERSION, lib/libstdc++.a, lib/libsupc++.a) and touches
# PREFIX/.built last; builds in PREFIX.build, removed on success.
#
# The library is compiled once, against the headers both threads modes
# share (green's only add declarations to musl's), and links into both.
#   --enable-clocale=generic   musl has no GNU locale model
#   --disable-linux-futex      libstdc++ would wait in raw futex system
#                              calls (futures, atomic waits), which under
#                              green would stop every thread: it waits
#                              on pthread mutexes and conditions instead
#   --enable-libstdcxx-time    sched_yield, nanosleep and the monotonic
#                              clock from the libc (without it,
#                              std::this_thread::yield does nothing)
# The threads model is the compiler's (`g++ -v`: "Thread model: posix"),
# its header (gthr-default.h) made the way gcc's own build makes it.
# The host gcc compiles it (GCC_CC / GCC_CXX name others); its libgcc and
# libgcc_eh, which green-cc links already, are the unwinder.
set -eu
src=$1 b=$2 prefix=$3
[ -f "$src/libstdc++-v3/configure" ] || { echo "mkcxxrt.sh: no libstdc++-v3 in $src" >&2; exit 1; }
cc=${GCC_CC:-gcc} cxx=${GCC_CXX:-g++}
specs=$b/lib/1to1/green.specs
[ -f "$specs" ] || { echo "mkcxxrt.sh: $specs is missing (build green first)" >&2; exit 1; }
case $(uname -m) in
x86_64) host=x86_64-linux-musl ;;
*) echo "mkcxxrt.sh: the C++ runtime is built for x86_64 only" >&2; exit 1 ;;
esac
work=$prefix.build
rm -rf "$work" "$prefix"
# In a whole gcc build, libgcc's configure makes gthr-default.h (the
# threads model's header: POSIX's) in its build directory, which
# libstdc++'s configure and build look for beside their own
mkdir -p "$work/libgcc" "$work/libstdc++-v3"
cp "$src/libgcc/gthr-posix.h" "$work/libgcc/gthr-default.h"
cd "$work/libstdc++-v3"
t0=$(date +%s)
echo "mkcxxrt.sh: configuring libstdc++ (log: $work/libstdc++-v3/configure.log)"
"$src/libstdc++-v3/configure" --host=$host --build="$($cc -dumpmachine)" \
	--prefix="$prefix" --with-gxx-include-dir="$prefix/include/c++" \
	CC="$cc -specs=$specs -static" CXX="$cxx -specs=$specs -static" \
	CPP="$cc -specs=$specs -E" CXXCPP="$cxx -specs=$specs -E" \
	AR=ar RANLIB=ranlib NM=nm AS=as LD=ld \
	CFLAGS="-O2 -g" CXXFLAGS="-O2 -g" \
	--disable-shared --enable-static --disable-multilib --disable-nls \
	--disable-libstdcxx-pch --enable-clocale=generic \
	--disable-linux-futex --enable-libstdcxx-time=yes --enable-tls \
	--disable-symvers >configure.log 2>&1 || { tail -40 configure.log >&2; exit 1; }
echo "mkcxxrt.sh: building libstdc++ (log: $work/libstdc++-v3/build.log)"
make -j"${GREEN_CXXRT_JOBS:-2}" >build.log 2>&1 || { grep -B5 -A5 -m3 'rror' build.log >&2; tail -20 build.log >&2; exit 1; }
make install >install.log 2>&1 || { tail -30 install.log >&2; exit 1; }
grep -q '^#define _GLIBCXX_HAS_GTHREADS 1' "$prefix/include/c++/$host/bits/c++config.h" ||
	{ echo "mkcxxrt.sh: libstdc++ was configured without threads (config.log)" >&2; exit 1; }
cp config.log "$prefix/config.log"
cd / && rm -rf "$work"
t=$(( $(date +%s) - t0 ))
echo "$t" >"$prefix/build-seconds"
touch "$prefix/.built"
echo "mkcxxrt.sh: the C++ runtime took $t s to build ($prefix)"
