/*
 * syscall.c — musl's syscall(), which also tells green when a descriptor
 * number is closed or replaced behind libc's back: close, close_range
 * (musl 1.2.3 has no function for it), dup2 and dup3, and mq_close,
 * which closes through here.  What green knew of those numbers is
 * forgotten (src/core/fdkind.c).  Every other call is passed on as is.
 */
#define _BSD_SOURCE
#include <unistd.h>
#include <stdarg.h>
#include "green.h"

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
	}
}

long syscall(long n, ...)
{
	va_list ap;
	syscall_arg_t a,b,c,d,e,f;
	long r;
	va_start(ap, n);
	a=va_arg(ap, syscall_arg_t);
	b=va_arg(ap, syscall_arg_t);
	c=va_arg(ap, syscall_arg_t);
	d=va_arg(ap, syscall_arg_t);
	e=va_arg(ap, syscall_arg_t);
	f=va_arg(ap, syscall_arg_t);
	va_end(ap);
	r = __syscall(n,a,b,c,d,e,f);
	renumbered(n, a, b);
	return __syscall_ret(r);
}
