/*
 * __stdio_write.c — flushing a FILE parks only the writing thread.
 *
 * printf, fputs, fwrite and fflush to a pipe, socket or terminal end
 * here (stdout through __stdout_write, which calls this), with only that
 * FILE locked by the caller.
 */
#include "stdio_impl.h"
#include <sys/uio.h>
#include "green-sys.h"

size_t __stdio_write(FILE *f, const unsigned char *buf, size_t len)
{
	struct iovec iovs[2] = {
		{ .iov_base = f->wbase, .iov_len = f->wpos-f->wbase },
		{ .iov_base = (void *)buf, .iov_len = len }
	};
	struct iovec *iov = iovs;
	size_t rem = iov[0].iov_len + iov[1].iov_len;
	int iovcnt = 2;
	ssize_t cnt;
	for (;;) {
		cnt = __syscall_ret(green_sys(SYS_writev, f->fd, (long)iov, iovcnt, 0));
		if ((size_t)cnt == rem) {
			f->wend = f->buf + f->buf_size;
			f->wpos = f->wbase = f->buf;
			return len;
		}
		if (cnt < 0) {
			f->wpos = f->wbase = f->wend = 0;
			f->flags |= F_ERR;
			return iovcnt == 2 ? 0 : len-iov[0].iov_len;
		}
		rem -= cnt;
		if ((size_t)cnt > iov[0].iov_len) {
			cnt -= iov[0].iov_len;
			iov++; iovcnt--;
		}
		iov[0].iov_base = (char *)iov[0].iov_base + cnt;
		iov[0].iov_len -= cnt;
	}
}
