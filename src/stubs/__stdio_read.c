/*
 * __stdio_read.c — refilling a FILE: one read fills the caller's buffer
 * and the FILE's own behind it.
 *
 * fgets, getline, fread, scanf on a pipe, socket or terminal end here
 * with only that FILE locked; green makes the read through its dispatch,
 * so an empty pipe parks the reading thread alone.
 */
#include "base/seam.h"
#include "stdio_impl.h"
#include <sys/uio.h>
#include "green-sys.h"

size_t __stdio_read(FILE *f, unsigned char *buf, size_t len)
{
	/* A buffered FILE takes the caller's last byte into f->buf along
	 * with whatever more the kernel has; an unbuffered one reads
	 * straight into buf. */
	size_t direct = f->buf_size ? len - 1 : len;
	struct iovec into[2] = {
		{ .iov_base = buf, .iov_len = direct },
		{ .iov_base = f->buf, .iov_len = f->buf_size },
	};
	long got;

	if (direct)
		got = green_sys(SYS_readv, f->fd, (long)into, 2, 0);
	else
		got = green_sys(SYS_read, f->fd, (long)f->buf, f->buf_size, 0);
	got = __syscall_ret(got);

	if (got < 0) f->flags |= F_ERR;
	if (got == 0) f->flags |= F_EOF;
	if (got <= 0) return 0;
	if ((size_t)got <= direct) return got;

	/* some landed in f->buf: its first byte ends the caller's request */
	f->rpos = f->buf;
	f->rend = f->buf + (got - direct);
	if (f->buf_size) buf[len - 1] = *f->rpos++;
	return len;
}
