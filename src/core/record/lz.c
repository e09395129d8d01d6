/*
 * lz.c — the trace's compressor: LZ77 with a hash of the next four
 * bytes, the way LZ4 does it, written for green.  A trace is mostly small
 * records of system-call numbers, arguments and results that repeat with
 * small changes, so back-references to the last 64 KiB find most of it.
 *
 * A block is a sequence of tokens:
 *   literal count (varint), the literals,
 *   match length - 4 (varint), match distance (varint)
 * The last token has literals only and is ended by the block's length.
 */
#include <string.h>
#include "record/trace.h"

#define HBITS 14
#define WINDOW 65535
#define MINMATCH 4

static unsigned char *put_var(unsigned char *o, size_t v)
{
	while (v >= 128) {
		*o++ = v | 128;
		v >>= 7;
	}
	*o++ = v;
	return o;
}

static const unsigned char *get_var(const unsigned char *i, const unsigned char *end, size_t *v)
{
	size_t r = 0;
	int sh = 0;
	while (i < end && *i & 128) {
		r |= (size_t)(*i++ & 127) << sh;
		sh += 7;
	}
	if (i < end) r |= (size_t)*i++ << sh;
	*v = r;
	return i;
}

static uint32_t h4(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return (v * 2654435761u) >> (32 - HBITS);
}

hidden size_t green_lz_pack(const unsigned char *in, size_t n, unsigned char *out)
{
	static uint32_t table[1 << HBITS];
	const unsigned char *ip = in, *lit = in, *end = in + n;
	unsigned char *o = out;

	memset(table, 0, sizeof table);
	while (n >= MINMATCH && ip + MINMATCH <= end) {
		uint32_t h = h4(ip);
		const unsigned char *ref = in + table[h];
		table[h] = ip - in;
		if (ref < ip && ip - ref <= WINDOW && !memcmp(ref, ip, MINMATCH)) {
			size_t len = MINMATCH;
			while (ip + len < end && ref[len] == ip[len]) len++;
			o = put_var(o, ip - lit);
			memcpy(o, lit, ip - lit);
			o += ip - lit;
			o = put_var(o, len - MINMATCH);
			o = put_var(o, ip - ref);
			ip += len;
			lit = ip;
			continue;
		}
		ip++;
	}
	o = put_var(o, end - lit);
	memcpy(o, lit, end - lit);
	return o + (end - lit) - out;
}

/* The unpacked length, or (size_t)-1 for a damaged block. */
hidden size_t green_lz_unpack(const unsigned char *in, size_t n, unsigned char *out, size_t cap)
{
	const unsigned char *ip = in, *end = in + n;
	unsigned char *o = out, *oend = out + cap;
	size_t v, d;

	for (;;) {
		ip = get_var(ip, end, &v);
		if (v > (size_t)(end - ip) || v > (size_t)(oend - o)) return (size_t)-1;
		memcpy(o, ip, v);
		o += v;
		ip += v;
		if (ip == end) return o - out;
		ip = get_var(ip, end, &v);
		ip = get_var(ip, end, &d);
		v += MINMATCH;
		if (d == 0 || d > (size_t)(o - out) || v > (size_t)(oend - o)) return (size_t)-1;
		for (size_t k = 0; k < v; k++, o++) *o = o[-d];   /* may overlap itself */
	}
}
