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
 *
 * The formats a server prints most are formatted here in one pass
 * (quick, below): "%s: %s", "HTTP/%s %i %s", strftime's "%0*lld".
 * musl's vfprintf reads every format twice (a first pass looks for
 * positional arguments) and spends most of a short line on its state
 * machine: in CivetWeb's answer to a request, 16 snprintf calls were a
 * fifth of its user-space instructions.  quick takes literal text,
 * %%, %c, %s with an optional width or precision, and d, i, u, x, X with an
 * optional 0 flag and width and the l, ll, z, j and t modifiers;
 * anything else (another flag or conversion, a positional argument, a
 * width beyond QUICK_WIDTH) makes it give up, and vfprintf formats the
 * whole from the buffer's start, with the arguments quick read from a
 * copy.
 */
#include "stdio_impl.h"
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
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

#define QUICK_WIDTH 64

/* v's digits at the end of d (24 bytes); their count */
static int dec(char *d, unsigned long long v)
{
	int k = 0;

	do d[23 - k++] = '0' + v % 10; while (v /= 10);
	return k;
}

static int hex(char *d, unsigned long long v, int upper)
{
	const char *x = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	int k = 0;

	do d[23 - k++] = x[v & 15]; while (v >>= 4);
	return k;
}

/* l bytes at a into s at len, what fits in room stored; len moved */
static size_t put(char *s, size_t len, size_t room, const char *a, size_t l)
{
	if (len < room) memcpy(s + len, a, l < room - len ? l : room - len);
	return len + l;
}

/*
 * The format into s (room bytes, the terminator's not among them), if
 * it has only what this takes (above): the whole output's length, or
 * -1 to leave the format to vfprintf, which stores over whatever was
 * stored here (ap is a copy of the caller's arguments).
 */
static int quick(char *s, size_t room, const char *fmt, va_list *ap)
{
	size_t len = 0;
	const char *p = fmt, *q;

	for (;;) {
		int zero = 0, width = 0, prec = -1, mod = 0, neg = 0, k;
		unsigned long long v;
		char d[24];

		for (q = p; *q && *q != '%'; q++);   /* literal text */
		len = put(s, len, room, p, q - p);
		if (!*q) break;
		p = q + 1;
		if (*p == '%' || *p == 'c') {
			d[0] = *p == '%' ? '%' : (char)va_arg(*ap, int);
			len = put(s, len, room, d, 1);
			p++;
			continue;
		}
		if (*p == '0') zero = 1, p++;
		if (*p == '*') {
			width = va_arg(*ap, int);
			p++;
		} else {
			for (; *p >= '0' && *p <= '9'; p++)
				if (width <= QUICK_WIDTH) width = 10 * width + (*p - '0');
			if (*p == '$') return -1;   /* a positional argument */
		}
		/* a negative width is the '-' flag's; a long one's pad */
		if (width < 0 || width > QUICK_WIDTH) return -1;
		if (*p == '.') {
			p++;
			if (*p == '*') {
				prec = va_arg(*ap, int);
				p++;
			} else {
				for (prec = 0; *p >= '0' && *p <= '9'; p++)
					if (prec < INT_MAX / 10) prec = 10 * prec + (*p - '0');
			}
		}
		if (*p == 'l' && p[1] == 'l') mod = 'L', p += 2;
		else if (*p == 'l' || *p == 'z' || *p == 'j' || *p == 't') mod = *p == 'l' ? 'l' : *p, p++;
		if (*p == 's') {
			const char *a = va_arg(*ap, const char *);
			size_t l;

			if (mod) return -1;   /* %ls */
			if (!a) a = "(null)";
			l = prec < 0 ? strlen(a) : strnlen(a, prec);
			for (size_t i = l; i < (size_t)width; i++) len = put(s, len, room, " ", 1);   /* no zeros for %s */
			len = put(s, len, room, a, l);
			p++;
			continue;
		}
		if (prec >= 0) return -1;   /* an integer's precision */
		if (*p == 'd' || *p == 'i') {
			long long x = mod == 'L' ? va_arg(*ap, long long) :
			              mod == 'l' ? va_arg(*ap, long) :
			              mod == 'z' ? (long long)va_arg(*ap, ssize_t) :
			              mod == 'j' ? va_arg(*ap, intmax_t) :
			              mod == 't' ? va_arg(*ap, ptrdiff_t) : va_arg(*ap, int);
			neg = x < 0;
			v = neg ? -(unsigned long long)x : (unsigned long long)x;
		} else if (*p == 'u' || *p == 'x' || *p == 'X') {
			v = mod == 'L' ? va_arg(*ap, unsigned long long) :
			    mod == 'l' ? va_arg(*ap, unsigned long) :
			    mod == 'z' ? va_arg(*ap, size_t) :
			    mod == 'j' ? va_arg(*ap, uintmax_t) :
			    mod == 't' ? (unsigned long long)va_arg(*ap, ptrdiff_t) : va_arg(*ap, unsigned);
		} else {
			return -1;   /* another conversion, or a flag this does not take */
		}
		k = *p == 'x' || *p == 'X' ? hex(d, v, *p == 'X') : dec(d, v);
		if (neg && zero) len = put(s, len, room, "-", 1);
		for (int i = k + neg; i < width; i++) len = put(s, len, room, zero ? "0" : " ", 1);
		if (neg && !zero) len = put(s, len, room, "-", 1);
		len = put(s, len, room, d + sizeof d - k, k);
		if (len > INT_MAX) return -1;
		p++;
	}
	return len > INT_MAX ? -1 : (int)len;
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

	{
		va_list copy;
		va_copy(copy, ap);
		ret = quick((char *)buf, room, fmt, &copy);
		va_end(copy);
		if (ret >= 0) {
			buf[(size_t)ret < room ? (size_t)ret : room] = 0;
			return ret;
		}
	}

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
