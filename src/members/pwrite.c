/*
 * pwrite — musl's, with a regular file's write made at once once threads
 * exist: the plain system call, as the dispatch makes it for a kind
 * that never waits (src/sysio/fdkind.c), without __syscall_cp and the
 * dispatch (a database's pwrite of a page).  Any other kind, a kind not
 * learnt yet, a pending cancel and EFAULT (a buffer in a parked copied
 * thread's stack) go to musl's entry for blocking calls, __syscall_cp,
 * as musl's own pwrite does (fastio.h, green_file_at).
 */
#include <unistd.h>
#include "fastio.h"

static __attribute__((noinline)) ssize_t general(int fd, const void *buf, size_t size, off_t ofs)
{
	return syscall_cp(SYS_pwrite, fd, buf, size, __SYSCALL_LL_PRW(ofs));
}

ssize_t pwrite(int fd, const void *buf, size_t size, off_t ofs)
{
	long r = green_file_at(SYS_pwrite, fd, buf, size, ofs);

	if (r == GREEN_IO_GENERAL) return general(fd, buf, size, ofs);
	return __syscall_ret(r);
}

#undef pwrite64   /* <unistd.h> names it pwrite under _GNU_SOURCE */
weak_alias(pwrite, pwrite64);
