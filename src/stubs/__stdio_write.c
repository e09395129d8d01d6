/*
 * __stdio_write.c — writing out a FILE's buffer and the caller's bytes
 * after it, in one writev where the kernel takes them all.
 *
 * printf, fputs, fwrite and fflush to a pipe, socket or terminal end
 * here (stdout through __stdout_write, which calls this) with only that
 * FILE locked; green makes the writev through its dispatch, so a full
 * pipe parks the writing thread alone.
 */
#include "base/seam.h"
#include "stdio_impl.h"
#include <sys/uio.h>
#include "green-sys.h"

/* Everything went out: the buffer is empty and open for writing. */
static void emptied(FILE *f)
{
	f->wbase = f->wpos = f->buf;
	f->wend = f->buf + f->buf_size;
}

/* A write failed: no buffer until the error is dealt with. */
static void failed(FILE *f)
{
	f->wbase = f->wpos = f->wend = 0;
	f->flags |= F_ERR;
}

/* Take n written bytes off the front of part[*first] and part[1]. */
static void written(struct iovec part[2], int *first, size_t n)
{
	struct iovec *p;

	if (*first == 0 && n > part[0].iov_len) {
		n -= part[0].iov_len;
		part[0].iov_len = 0;
		*first = 1;
	}
	p = &part[*first];
	p->iov_base = (char *)p->iov_base + n;
	p->iov_len -= n;
}

size_t __stdio_write(FILE *f, const unsigned char *buf, size_t len)
{
	/* part 0: what the FILE holds already; part 1: the caller's bytes */
	struct iovec part[2];
	int first = 0;          /* the first part not yet fully written */
	size_t left;
	long n;

	part[0].iov_base = f->wbase;
	part[0].iov_len = f->wpos - f->wbase;
	part[1].iov_base = (void *)buf;
	part[1].iov_len = len;
	left = part[0].iov_len + len;

	for (;;) {
		n = green_sys(SYS_writev, f->fd, (long)&part[first], 2 - first, 0);
		n = __syscall_ret(n);
		if (n < 0) {
			failed(f);
			/* how much of the caller's own bytes did go out */
			return first ? len - part[1].iov_len : 0;
		}
		if ((size_t)n == left) {
			emptied(f);
			return len;
		}
		left -= n;
		written(part, &first, n);
	}
}
