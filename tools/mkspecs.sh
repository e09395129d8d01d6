#!/bin/sh
# mkspecs.sh INCDIR_GREEN INCDIR_MUSL LIBDIR > specs
#
# A GCC specs file in the manner of musl-gcc's: compile against our
# overlay headers and musl's, link statically against LIBDIR's libc.a and
# start-up objects, never against the host's glibc.
set -eu
cat <<SPECS
%rename cpp_options old_cpp_options

*cpp_options:
-nostdinc -isystem $1 -isystem $2 -isystem include%s %(old_cpp_options)

*cc1:
%(cc1_cpu) -nostdinc -isystem $1 -isystem $2 -isystem include%s

*link_libgcc:
-L$3 -L .%s

*libgcc:
libgcc.a%s %:if-exists(libgcc_eh.a%s)

*startfile:
$3/crt1.o $3/crti.o crtbeginT.o%s

*endfile:
crtend.o%s $3/crtn.o

*link:
-nostdlib -static %{rdynamic:-export-dynamic}

*esp_link:


*esp_options:


*esp_cpp_options:


SPECS
