/*
 * vsnprintf.c — vsnprintf (and so snprintf, vsprintf, sprintf) formatting
 * straight into the caller's buffer.
 *
 * musl's vsnprintf gives vfprintf a FILE with no buffer, so vfprintf
 * formats into an 80-byte buffer of its own and a callback copies each
 * 80 bytes to the caller's string: every byte is copied twice and every
 * literal piece and conversion of a long format passes through the
 * callback.  A server formats its response headers with snprintf, line
 * by line (docs/servers.md).  Here the caller's buffer is the FILE's
 * buffer: vfprintf's stores land where they belong, and the callback is
 * reached only when the output is longer than the buffer, to store what
 * still fits and drop the rest.  The result is musl's: the length the
 * whole output would have, the string always terminated within n bytes,
 * EOVERFLOW for n above INT_MAX.
 */
#include "stdio_impl.h"
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

/* Called by __fwritex when l bytes do not fit between wpos and wend:
 * keep what fits, and report every byte written, as snprintf must. */
static size_t fill_and_drop(FILE *f, const unsigned char *s, size_t l)
{
	size_t room = f->wend - f->wpos;

	if (room > l) room = l;
	memcpy(f->wpos, s, room);
	f->wpos += room;
	return l;
}

int vsnprintf(char *restrict s, size_t n, const char *restrict fmt, va_list ap)
{
	unsigned char dummy[1];
	unsigned char *buf = n ? (unsigned char *)s : dummy;
	size_t room = n ? n - 1 : 0;
	int ret;

	if (n > INT_MAX) {
		errno = EOVERFLOW;
		return -1;
	}
	/* vsprintf passes INT_MAX: keep the end inside the address space */
	if (room > UINTPTR_MAX - (uintptr_t)buf) room = UINTPTR_MAX - (uintptr_t)buf;

	FILE f = {
		.lbf = EOF,
		.write = fill_and_drop,
		.lock = -1,
		.buf = buf,
		.buf_size = room + 1,   /* nonzero: vfprintf writes into it */
		.wbase = buf,
		.wpos = buf,
		.wend = buf + room,
	};
	ret = vfprintf(&f, fmt, ap);
	*f.wpos = 0;
	return ret;
}
