#!/bin/sh
# mkkinclude.sh CC DIR — the kernel's headers for green-cc: DIR gets a
# link to each directory of the Linux UAPI headers (<linux/*.h>,
# <asm/*.h>, <asm-generic/*.h> and their kin: Debian's linux-libc-dev,
# which every C compiler of the system depends on) where CC finds them.
# They are the kernel's interface, the same whatever the libc, and musl
# ships none: green's specs search DIR after musl's and the compiler's
# headers (tools/mkspecs.sh), as musl-based systems search theirs.
# Nothing of the host's libc comes with them: only these directories,
# never the one that holds them.  Without kernel headers DIR stays empty,
# and the line below says so.
set -eu
cc=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir"
# the header's directory, as CC resolves it
where() {
	printf '#include <%s>\n' "$1" | $cc -E -M -xc - 2>/dev/null |
		tr ' \\' '\n\n' | grep "/$1\$" | head -1 | sed "s|/$1\$||"
}
top=$(where linux/types.h) || top=
arch=$(where asm/types.h) || arch=
if [ -z "$top" ] || [ -z "$arch" ]; then
	echo "mkkinclude.sh: $cc finds no kernel headers (linux/types.h, asm/types.h): green-cc will not have <linux/*.h>" >&2
	exit 0
fi
ln -s "$arch/asm" "$dir/asm"
for d in linux asm-generic misc mtd rdma sound video xen; do
	[ -d "$top/$d" ] && ln -s "$top/$d" "$dir/$d"
done
exit 0
