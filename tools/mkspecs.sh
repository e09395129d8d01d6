#!/bin/sh
# mkspecs.sh INCDIR_GREEN INCDIR_MUSL LIBDIR MODE [CXXINC CXXLIB] > specs
#
# MODE (green or 1to1) is visible to programs as __GREEN_THREADS__ being
# 1 (coroutines on one kernel thread) or 0 (kernel threads).
#
# A GCC specs file in the manner of musl-gcc's: compile against our
# overlay headers and musl's, link statically against LIBDIR's libc.a and
# start-up objects, never against the host's glibc.  sysconf is wrapped
# (src/members/sysconf.c: green's answers where they differ from musl's).
#
# A directory given as $VAR/path (literally) is found at each compilation: the spec
# %:getenv(VAR /path) (the installed trees, which green-cc finds relative
# to itself, are named so); MKSPECS_ALLTYPES then names musl's
# bits/alltypes.h.
#
# MKSPECS_KERNEL names the directory of links to the system's kernel
# headers (tools/mkkinclude.sh), searched after every other: <linux/*.h>
# and <asm/*.h> as glibc programs find them.
#
# With CXXINC and CXXLIB, the specs of green-c++: libstdc++'s headers
# (CXXINC, and its target directory CXXINC/x86_64-linux-musl) are searched
# ahead of the C headers, as g++ searches its own, and CXXLIB, which holds
# libstdc++.a, is where g++'s -lstdc++ is found (docs/cxx.md).
set -eu
# The host's libgcc_eh.a, built for glibc 2.34 or later, takes threads to
# be always there, and calls pthread_once and the other functions it
# refers to weakly without looking: every link keeps them (-u), or a C++
# program that throws before anything else needed pthread_once would call
# address 0, and so would the frame registration at start-up of a C
# program that has the unwinder only through green's pthread_once
# (src/core/sync/once.c) but no mutex.
undef=
for f in once mutex_lock mutex_unlock key_create getspecific setspecific; do
	undef="$undef -u pthread_$f"
done
cxxinc= cxxlib= kinc=
[ -z "${MKSPECS_KERNEL:-}" ] || kinc=" -idirafter $MKSPECS_KERNEL"
if [ $# -ge 6 ]; then
	cxxinc="-isystem $5 -isystem $5/x86_64-linux-musl -isystem $5/backward "   # as g++ searches them
	cxxlib=" -L$6"
fi
# Green mode wraps fcntl and ioctl: a change of a descriptor's flags
# (F_SETFL, FIONBIO) makes green ask again which are non-blocking
# (src/members/fcntl.c, ioctl.c).
# Green mode also links green-gdb.o: the entry that has gdb load the
# extension, and a reference to the layout table it reads (gdb/include.am).
# Green mode wraps clock_gettime and clock_getres too (green threads'
# CPU-time clocks: src/members/clock_gettime.c) and the timer_* calls
# (SIGEV_THREAD timers: src/members/timer_create.c).
# On a 32-bit port musl's <time.h> redirects the four that take a struct
# timespec to their 64-bit-time symbols, which every call then names:
# those are wrapped instead (GREEN_WRAP_T64 in src/core/signal/ptimer.h).
case $4 in
green) m=1 gdbobj=" $3/green-gdb.o"
	if grep -q '_REDIR_TIME64 1' "${MKSPECS_ALLTYPES:-$2/bits/alltypes.h}" 2>/dev/null; then
		wraps=" --wrap=__clock_gettime64 --wrap=__clock_getres_time64"
		wraps="$wraps --wrap=__timer_settime64 --wrap=__timer_gettime64"
	else
		wraps=" --wrap=clock_gettime --wrap=clock_getres --wrap=timer_settime --wrap=timer_gettime"
	fi
	for f in create delete getoverrun; do wraps="$wraps --wrap=timer_$f"; done
	wraps="$wraps --wrap=fcntl --wrap=ioctl" ;;
*) m=0 gdbobj= wraps= ;;
esac
sed 's|\$\([A-Z_]*\)\([^ ]*\)|%:getenv(\1 \2)|g' <<SPECS
%rename cpp_options old_cpp_options

*cpp_options:
-nostdinc $cxxinc-isystem $1 -isystem $2 -isystem include%s$kinc -D__GREEN_THREADS__=$m %(old_cpp_options)

*cc1:
%(cc1_cpu) -nostdinc $cxxinc-isystem $1 -isystem $2 -isystem include%s$kinc -D__GREEN_THREADS__=$m

*link_libgcc:
-L$3$cxxlib -L .%s

*libgcc:
libgcc.a%s %:if-exists(libgcc_eh.a%s)

*startfile:
$3/crt1.o $3/crti.o crtbeginT.o%s$gdbobj

*endfile:
crtend.o%s $3/crtn.o

*link:
-nostdlib -static --wrap=sysconf$wraps$undef %{rdynamic:-export-dynamic}

*esp_link:


*esp_options:


*esp_cpp_options:


SPECS
