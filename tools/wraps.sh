#!/bin/sh
# wraps.sh MODE ALLTYPES [shared] — the libc functions whose green
# version stands in front of musl's, one name a line.
#
# MODE is green or 1to1; ALLTYPES names musl's bits/alltypes.h; shared
# asks for the list of a libc.so, which adds dlopen (src/members/dlopen.c:
# an object built for glibc is refused) in both modes.  sysconf
# is green's in both modes (src/members/sysconf.c: green's answers where
# they differ from musl's).  Green mode also puts its own in front of
# fcntl and ioctl (a change of a descriptor's flags, F_SETFL or FIONBIO,
# makes green ask again which are non-blocking: src/members/fcntl.c,
# ioctl.c), clock_gettime and clock_getres (green threads' CPU-time
# clocks: src/members/clock_gettime.c) and the timer_* calls
# (SIGEV_THREAD timers: src/members/timer_create.c).  On a 32-bit port
# musl's <time.h> redirects the four that take a struct timespec to their
# 64-bit-time symbols, which every call then names: those are the ones
# (GREEN_WRAP_T64 in src/core/signal/ptimer.h).
#
# Each green version is __wrap_NAME and reaches musl's as __real_NAME.
# A static link puts them in front with ld's --wrap=NAME
# (tools/mkspecs.sh); green's libc.so is linked with the names renamed
# instead, musl's NAME to __real_NAME and green's __wrap_NAME to NAME
# (tools/mklibc.sh --shared), so that the shared library exports green's
# under the plain name and a program needs no option of its own.
set -eu
echo sysconf
[ "${3:-}" = shared ] && echo dlopen
[ "$1" = green ] || exit 0
if grep -q '_REDIR_TIME64 1' "$2" 2>/dev/null; then
	printf '%s\n' __clock_gettime64 __clock_getres_time64 __timer_settime64 __timer_gettime64
else
	printf '%s\n' clock_gettime clock_getres timer_settime timer_gettime
fi
printf '%s\n' timer_create timer_delete timer_getoverrun fcntl ioctl
