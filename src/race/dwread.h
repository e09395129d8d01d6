/*
 * dwread.h — reading DWARF's encodings (dwarf.c, inline.c): little-endian
 * numbers of n bytes, LEB128, strings, each bounded by the end of the
 * section; a read past it sets `bad` and yields 0.
 */
#ifndef GREEN_RACE_DWREAD_H
#define GREEN_RACE_DWREAD_H

#include <stdint.h>

struct in { const unsigned char *p, *end; int bad; };

static inline uint64_t u(struct in *in, int n)
{
	uint64_t v = 0;
	int i;
	if (in->end - in->p < n) {
		in->bad = 1;
		in->p = in->end;
		return 0;
	}
	for (i = 0; i < n; i++) v |= (uint64_t)in->p[i] << (8 * i);
	in->p += n;
	return v;
}

static inline uint64_t uleb(struct in *in)
{
	uint64_t v = 0;
	int s = 0;
	while (in->p < in->end) {
		unsigned char b = *in->p++;
		if (s < 64) v |= (uint64_t)(b & 0x7f) << s;
		s += 7;
		if (!(b & 0x80)) return v;
	}
	in->bad = 1;
	return v;
}

static inline int64_t sleb(struct in *in)
{
	int64_t v = 0;
	int s = 0;
	unsigned char b = 0x80;
	while (in->p < in->end && (b & 0x80)) {
		b = *in->p++;
		if (s < 64) v |= (int64_t)(b & 0x7f) << s;
		s += 7;
	}
	if (s < 64 && (b & 0x40)) v |= -((int64_t)1 << s);
	return v;
}

static inline void skip(struct in *in, uint64_t n)
{
	in->p += (uint64_t)(in->end - in->p) < n ? (uint64_t)(in->end - in->p) : n;
}

static inline const char *cstr(struct in *in)
{
	const char *s = (const char *)in->p;
	while (in->p < in->end && *in->p) in->p++;
	if (in->p >= in->end) {
		in->bad = 1;
		return "";
	}
	in->p++;
	return s;
}

#endif
