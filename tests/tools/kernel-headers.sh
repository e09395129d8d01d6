#!/bin/sh
# kernel-headers.sh — green-cc and green-c++ find the system's kernel
# headers (<linux/*.h>, <asm/*.h>: tools/mkkinclude.sh, docs/kernel.md),
# and musl's headers and the kernel's do not clash in the combinations
# programs use, the libc's header first as musl documents.  Compiled in
# both threads modes (nothing is run: a cross build compiles here too).
# The headers must be the system's own: the dependency list of a
# compilation shows <linux/futex.h> reached through green's links.
. "$GREEN_SRC/tests/lib.sh"
scratch kheaders

# combo NAME HEADER...: a translation unit including the headers in order
# and using something of each
combo() {
	name=$1
	shift
	: > "$T/$name.c"
	for h do echo "#include <$h>" >> "$T/$name.c"; done
	cat "$T/body" >> "$T/$name.c"
}

printf '#ifndef _GNU_SOURCE\n#define _GNU_SOURCE\n#endif\n' > "$T/pre"
# the names each combination must see, from both sides
cat > "$T/body" <<'BODY'
int f(void);
int f(void) { return 0; }
BODY
combo futex_pthread linux/futex.h pthread.h
printf 'int g(void) { pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; (void)m; return FUTEX_WAIT_PRIVATE + FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_EQ, 0); }\n' >> "$T/futex_pthread.c"
combo pthread_futex pthread.h linux/futex.h sys/syscall.h
printf 'long g(void) { return SYS_futex + FUTEX_WAKE_BITSET + sizeof(struct robust_list_head); }\n' >> "$T/pthread_futex.c"
combo netif net/if.h linux/if.h
printf 'int g(void) { struct ifreq r; struct ifconf c; (void)c; return IFNAMSIZ + IFF_UP + IFF_LOWER_UP + sizeof r + (int)if_nametoindex("lo"); }\n' >> "$T/netif.c"
combo in6 netinet/in.h linux/in6.h
printf 'int g(void) { struct in6_addr a; struct in6_flowlabel_req r; (void)r; return sizeof a + IPPROTO_IPV6; }\n' >> "$T/in6.c"
combo ether netinet/if_ether.h linux/if_ether.h
printf 'int g(void) { struct ethhdr e; return sizeof e + ETH_P_IP + ETH_P_8021AD; }\n' >> "$T/ether.c"
combo unistd unistd.h sys/syscall.h linux/unistd.h
printf 'long g(void) { return syscall(__NR_gettid) + SYS_gettid; }\n' >> "$T/unistd.c"
combo netlink sys/socket.h linux/netlink.h linux/rtnetlink.h
printf 'int g(void) { struct sockaddr_nl a; struct nlmsghdr h; (void)h; return sizeof a + NETLINK_ROUTE + RTM_NEWLINK + AF_NETLINK; }\n' >> "$T/netlink.c"
combo perf sys/ioctl.h linux/perf_event.h asm/unistd.h
printf 'int g(void) { struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE }; return a.type + PERF_EVENT_IOC_ENABLE + __NR_perf_event_open; }\n' >> "$T/perf.c"
combo ioctls sys/ioctl.h asm/ioctls.h termios.h
printf 'int g(void) { struct termios t; (void)t; return TIOCGWINSZ + FIONREAD; }\n' >> "$T/ioctls.c"
combo signalfd sys/signalfd.h linux/sched.h linux/types.h
printf 'int g(void) { __u32 x = CLONE_NEWNS; return (int)x + SFD_CLOEXEC; }\n' >> "$T/signalfd.c"

cxx=
[ -x "$B/bin/green-c++" ] && [ -f "$B/lib/green/green-c++.specs" ] && cxx=$B/bin/green-c++
for f in "$T"/*.c; do
	n=$(basename "$f" .c)
	cat "$T/pre" "$f" > "$T/$n.tu.c"
	for mode in green 1to1; do
		if "$B/bin/green-cc" --threads=$mode -std=gnu11 -Wall -Werror -c -o "$T/$n.o" "$T/$n.tu.c" 2>"$T/err"; then
			pass "green-cc --threads=$mode: $n"
		else
			fail "green-cc --threads=$mode: $n"
			sed 's/^/    | /' "$T/err" | head -20
		fi
	done
	if [ -n "$cxx" ]; then
		cp "$T/$n.tu.c" "$T/$n.tu.cc"
		if "$cxx" -std=gnu++17 -Wall -Werror -c -o "$T/$n.o" "$T/$n.tu.cc" 2>"$T/err"; then
			pass "green-c++: $n"
		else
			fail "green-c++: $n"
			sed 's/^/    | /' "$T/err" | head -20
		fi
	fi
done

# the headers are those green's links lead to (the compiler names a
# header by the link, or by where the link leads)
deps=$("$B/bin/green-cc" -M "$T/futex_pthread.tu.c" 2>&1)
for h in linux/futex.h asm/types.h; do
	d=${h%%/*}
	case $deps in
	*"$B/kinclude/$h"*|*"$(readlink "$B/kinclude/$d")/${h#*/}"*) pass "<$h> is the one $B/kinclude/$d leads to" ;;
	*) fail "<$h> is not the one $B/kinclude/$d leads to: $deps" ;;
	esac
done
for d in linux asm asm-generic; do
	if [ -L "$B/kinclude/$d" ] && [ -d "$B/kinclude/$d/" ]; then
		pass "kinclude/$d links to $(readlink "$B/kinclude/$d")"
	else
		fail "kinclude/$d is not a link to a directory"
	fi
done
finish
