/*
 * memchr.c — memchr for x86_64, sixteen bytes at a compare (SSE2, which
 * every x86_64 CPU has), where musl's portable memchr compares a word
 * of 8 bytes at a time after a byte loop to align.  printf's `%s`
 * (strnlen) and every header scan of a server call it; docs/servers.md
 * has what it costs per request.
 *
 * It reads only aligned 16-byte blocks, so it never reads from a page
 * that holds none of the bytes asked for: a caller may pass a length
 * beyond the object (strnlen does) as long as c occurs within it.  The
 * lanes of the first block before s and of the last block beyond n are
 * masked off.  Under memcheck the bytes of a block outside the object
 * read as undefined (partial loads); tests/unit/check_string.c scans past
 * the ends of malloc'd strings that way in the valgrind mode, without a
 * report.
 */
#include <emmintrin.h>
#include <stdint.h>
#include <string.h>

static inline unsigned lanes(const __m128i *p, __m128i needle)
{
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_load_si128(p), needle));
}

void *memchr(const void *src, int c, size_t n)
{
	const unsigned char *s = src;
	const __m128i needle = _mm_set1_epi8((char)c);
	unsigned skip = (uintptr_t)s & 15, mask;
	const __m128i *p = (const __m128i *)(s - skip);

	if (!n) return 0;
	/* n counted from the block's start; a length that would wrap (a
	 * caller's SIZE_MAX) is as good as unbounded */
	n = n > SIZE_MAX - 16 ? SIZE_MAX - 16 : n;
	n += skip;
	mask = lanes(p, needle) >> skip << skip;
	for (;;) {
		if (n <= 16) {
			mask &= (2u << (n - 1)) - 1;
			return mask ? (char *)p + __builtin_ctz(mask) : 0;
		}
		if (mask) return (char *)p + __builtin_ctz(mask);
		p++;
		n -= 16;
		mask = lanes(p, needle);
	}
}
