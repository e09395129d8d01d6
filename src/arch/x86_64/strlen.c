/*
 * strlen.c — strlen for x86_64, sixteen bytes at a compare (SSE2), as
 * memchr.c looks for its byte: musl's portable strlen reads a word of 8
 * bytes at a time after a byte loop to align, and most of a server's
 * strings (header names and values, the formats of snprintf) are short
 * enough for that set-up to be most of the call.  docs/servers.md has
 * what it costs per request.
 *
 * It reads only aligned 16-byte blocks, so never a page that holds none
 * of the string; the lanes of the first block before s are masked off.
 * Under memcheck the bytes of a block beyond the string read as
 * undefined (partial loads), as memchr's do.
 */
#include <emmintrin.h>
#include <stdint.h>
#include <string.h>

size_t strlen(const char *s)
{
	unsigned skip = (uintptr_t)s & 15;
	const __m128i *p = (const __m128i *)(s - skip), zero = _mm_setzero_si128();
	unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_load_si128(p), zero)) >> skip << skip;

	while (!mask) {
		p++;
		mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_load_si128(p), zero));
	}
	return (const char *)p + __builtin_ctz(mask) - s;
}
