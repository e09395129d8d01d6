/*
 * syscall.c — syscall(): the kernel call named by its number, with six
 * arguments taken whatever the call needs.
 *
 * Green's addition: when the call closed or replaced a descriptor number
 * behind libc's back — close, close_range (musl 1.2.3 has no function
 * for it), dup2 and dup3, and mq_close, which closes through here — what
 * green knew of that number is forgotten; when it changed a descriptor's
 * flags (fcntl F_SETFL, ioctl FIONBIO), green asks again whether
 * descriptors are non-blocking (src/sysio/fdkind.c).
 */
#define _BSD_SOURCE
#include <unistd.h>
#include <stdarg.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include "fdwait.h"

#undef syscall

static void renumbered(long n, long a, long b)
{
	switch (n) {
	case SYS_close: __green_fd_forget(a, a); break;
#ifdef SYS_close_range
	case SYS_close_range: __green_fd_forget(a, b); break;
#endif
#ifdef SYS_dup2
	case SYS_dup2:
#endif
	case SYS_dup3: if (a != b) __green_fd_forget(b, b); break;
	case SYS_fcntl: if (b == F_SETFL) __green_fd_flags_changed(); break;
	case SYS_ioctl: if (b == FIONBIO) __green_fd_flags_changed(); break;
	}
}

long syscall(long n, ...)
{
	syscall_arg_t arg[6];
	va_list ap;
	long r;
	int i;

	va_start(ap, n);
	for (i = 0; i < 6; i++) arg[i] = va_arg(ap, syscall_arg_t);
	va_end(ap);

	r = __syscall(n, arg[0], arg[1], arg[2], arg[3], arg[4], arg[5]);
	renumbered(n, arg[0], arg[1]);
	return __syscall_ret(r);
}
