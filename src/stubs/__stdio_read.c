/*
 * __stdio_read.c — refilling a FILE parks only the reading thread.
 *
 * fgets, getline, fread, scanf on a pipe, socket or terminal end here,
 * with only that FILE locked by the caller.
 */
#include "stdio_impl.h"
#include <sys/uio.h>
#include "green-sys.h"

size_t __stdio_read(FILE *f, unsigned char *buf, size_t len)
{
	struct iovec iov[2] = {
		{ .iov_base = buf, .iov_len = len - !!f->buf_size },
		{ .iov_base = f->buf, .iov_len = f->buf_size }
	};
	ssize_t cnt;

	cnt = iov[0].iov_len ? green_sys(SYS_readv, f->fd, (long)iov, 2, 0)
		: green_sys(SYS_read, f->fd, (long)iov[1].iov_base, iov[1].iov_len, 0);
	cnt = __syscall_ret(cnt);
	if (cnt <= 0) {
		f->flags |= cnt ? F_ERR : F_EOF;
		return 0;
	}
	if ((size_t)cnt <= iov[0].iov_len) return cnt;
	cnt -= iov[0].iov_len;
	f->rpos = f->buf;
	f->rend = f->buf + cnt;
	if (f->buf_size) buf[len-1] = *f->rpos++;
	return len;
}
