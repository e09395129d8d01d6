#!/bin/sh
# mkspecs.sh INCDIR_GREEN INCDIR_MUSL LIBDIR MODE [CXXINC CXXLIB] > specs
#
# MODE (green or 1to1) is visible to programs as __GREEN_THREADS__ being
# 1 (coroutines on one kernel thread) or 0 (kernel threads).
#
# A GCC specs file in the manner of musl-gcc's: compile against our
# overlay headers and musl's, link against LIBDIR's libc (libc.a, or
# libc.so where there is one and the link is dynamic) and start-up
# objects, never against the host's glibc.
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
# Green mode also links green-gdb.o: the entry that has gdb load the
# extension, and a reference to the layout table it reads (gdb/include.am).
# The functions green puts in front of musl's: tools/wraps.sh.
wraps=
for f in $("$(dirname "$0")/wraps.sh" "$4" "${MKSPECS_ALLTYPES:-$2/bits/alltypes.h}"); do
	wraps="$wraps --wrap=$f"
done
case $4 in
green) m=1 gdbobj=" %{shared:;static|static-pie:$3/green-gdb.o;:$3/green-gdb-dyn.o}" ;;
*) m=0 gdbobj= ;;
esac
[ -n "${MKSPECS_LOADER:-}" ] && gdbobj="$gdbobj %{!shared:%{!static:%{!static-pie:$3/unwinder.o}}}"
# The kind of link green-cc asked for (src/green-cc.in): -static (its
# default), -static-pie, -shared, or none of them: a dynamically linked
# executable, position-independent unless -no-pie, whose interpreter is
# the tree's loader, MKSPECS_LOADER (docs/dynamic.md).  Only a static
# link names the wrapped functions (green's libc.so exports them under
# the plain names: tools/wraps.sh).  A port without a loader links
# statically only (green-cc refuses the others).
# A dynamically linked executable also links unwinder.o, which hands the
# program's unwinder, if it links one (a C++ program), to libc.so
# (src/core/thread/unwinder.c).
loader=${MKSPECS_LOADER:-}
dyn=
[ -n "$loader" ] && dyn=" %{!static:%{!static-pie:%{!shared:-dynamic-linker $3/$loader}}}"
# green-c++ links C's personality routine too, which nothing of C++ asks
# for: pthread_once's cleanup in libc.so needs it (unwinder.c)
[ -n "$loader" ] && [ -n "$cxxinc" ] && dyn="$dyn %{!static:%{!static-pie:%{!shared:-u __gcc_personality_v0}}}"
sed 's|\$\([A-Z_]*\)\([^ ;}]*\)|%:getenv(\1 \2)|g' <<SPECS
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
%{shared:;static-pie:$3/rcrt1.o;static|no-pie:$3/crt1.o;:$3/Scrt1.o} $3/crti.o %{static:crtbeginT.o%s;shared|static-pie|!no-pie:crtbeginS.o%s;:crtbegin.o%s}$gdbobj

*endfile:
%{static:crtend.o%s;shared|static-pie|!no-pie:crtendS.o%s;:crtend.o%s} $3/crtn.o

*link:
-nostdlib %{static|static-pie:$wraps}$undef %{shared:-shared} %{static:-static} %{static-pie:-static -pie --no-dynamic-linker -z text}$dyn %{!static|static-pie:--eh-frame-hdr} %{rdynamic:-export-dynamic}

*esp_link:


*esp_options:


*esp_cpp_options:


SPECS
