/* check_string.c — Check suite: the string moves, scans and formatting
 * that green's libc provides itself (src/arch/x86_64/memcpy.S, memchr.c,
 * src/members/vsnprintf.c), against byte-by-byte references, at every
 * offset and length that takes a different path. */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wchar.h>
#include <sys/types.h>
#include "testutil.h"

static void *ref_memchr(const void *s, int c, size_t n)
{
	const volatile unsigned char *p = s;
	for (; n; n--, p++)
		if (*p == (unsigned char)c) return (void *)p;
	return 0;
}

/* lengths the compiler cannot see, so it neither warns nor assumes */
static volatile size_t unbounded = SIZE_MAX, one = 1;

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 131 + seed * 7 + 1);
}

/* Every length to 300 and every 97th to 5000 (past the string-move
 * threshold), 18 source and destination offsets each: the copy is
 * right, the return value is dst, and no byte around it changes. */
START_TEST(memcpy_sizes_offsets)
{
	enum { ROOM = 5200 };
	unsigned char *src = malloc(ROOM), *dst = malloc(ROOM), *want = malloc(ROOM);
	ck_assert_ptr_nonnull(src); ck_assert_ptr_nonnull(dst); ck_assert_ptr_nonnull(want);
	fill(src, ROOM, 1);
	for (size_t n = 0; n < 5000; n += n < 300 ? 1 : 97)
		for (size_t so = 0; so < 18; so++)
			for (size_t dof = 0; dof < 18; dof += 5) {
				fill(dst, ROOM, 2);
				fill(want, ROOM, 2);
				for (size_t i = 0; i < n; i++) want[dof + i] = src[so + i];
				ck_assert_ptr_eq(memcpy(dst + dof, src + so, n), dst + dof);
				if (memcmp(dst, want, ROOM))
					ck_abort_msg("memcpy of %zu bytes, source offset %zu, destination offset %zu", n, so, dof);
			}
	free(src); free(dst); free(want);
}
END_TEST

/* memmove reaches the forward copy when the destination is below the
 * source, overlapping or not; and copies backwards the other way. */
START_TEST(memmove_overlaps)
{
	enum { ROOM = 6000 };
	unsigned char *buf = malloc(ROOM), *want = malloc(ROOM), *tmp = malloc(ROOM);
	size_t lens[] = { 0, 1, 3, 8, 15, 16, 17, 31, 33, 64, 65, 100, 255, 2047, 2048, 2100 };
	for (size_t k = 0; k < sizeof lens / sizeof *lens; k++)
		for (int d = -70; d <= 70; d += 3) {
			size_t n = lens[k], from = 1500, to = from + d;
			fill(buf, ROOM, 3);
			fill(want, ROOM, 3);
			for (size_t i = 0; i < n; i++) tmp[i] = want[from + i];
			for (size_t i = 0; i < n; i++) want[to + i] = tmp[i];
			ck_assert_ptr_eq(memmove(buf + to, buf + from, n), buf + to);
			if (memcmp(buf, want, ROOM))
				ck_abort_msg("memmove of %zu bytes by %d", n, d);
		}
	free(buf); free(want); free(tmp);
}
END_TEST

/* Every start offset in a block, every length to 200, bytes that
 * occur and do not, c beyond a byte (converted to unsigned char). */
START_TEST(memchr_offsets_lengths)
{
	enum { ROOM = 512 };
	unsigned char *buf = malloc(ROOM);
	int cs[] = { 0, 1, 0x41, 0x80, 0xff, 0x141, -1, 0x7f };
	fill(buf, ROOM, 4);
	buf[40] = 0x41; buf[77] = 0x80; buf[200] = 0xff; buf[300] = 0;
	for (size_t off = 0; off < 40; off++)
		for (size_t n = 0; n < 200; n++)
			for (size_t k = 0; k < sizeof cs / sizeof *cs; k++)
				if (memchr(buf + off, cs[k], n) != ref_memchr(buf + off, cs[k], n))
					ck_abort_msg("memchr(+%zu, %#x, %zu)", off, cs[k], n);
	free(buf);
}
END_TEST

/* A length beyond the object, as strnlen and printf's %s pass: memchr
 * stops at the byte and reads nothing of an inaccessible page after a
 * string that ends at the page's edge; a length of SIZE_MAX too. */
START_TEST(memchr_beyond_object)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *map = mmap(0, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(map, MAP_FAILED);
	ck_assert_int_eq(mprotect(map + pg, pg, PROT_NONE), 0);
	for (int len = 0; len < 100; len++) {
		char *s = map + pg - len - 1, *h = malloc(len + 1);
		memset(s, 'x', len); s[len] = 0;
		ck_assert_ptr_eq(memchr(s, 0, unbounded), s + len);
		ck_assert_uint_eq(strnlen(s, 0x7fffffff), (size_t)len);
		memset(h, 'y', len); h[len] = 0;
		ck_assert_ptr_eq(memchr(h, 0, unbounded), h + len);
		ck_assert_uint_eq(strnlen(h, 1000), (size_t)len);
		free(h);
	}
	munmap(map, 2 * pg);
}
END_TEST

/* snprintf: the length of the whole output whatever n is, the string
 * terminated within n bytes, nothing written at or after s[n]; output
 * longer than any internal buffer; n = 0 with a null pointer. */
START_TEST(snprintf_truncates)
{
	char big[700], want[1200], buf[1300];
	memset(big, 'b', sizeof big - 1);
	big[sizeof big - 1] = 0;
	int wl = sprintf(want, "head %d|%s|%5.2f|%-4c|%%|%x tail", -42, big, 3.14159, 'z', 0xbeefu);
	ck_assert_int_eq(wl, (int)strlen(want));
	ck_assert_int_eq(wl, 5 + 3 + 1 + 699 + 1 + 5 + 1 + 4 + 1 + 1 + 1 + 4 + 5);
	ck_assert(!memcmp(want, "head -42|bbb", 12));
	ck_assert_str_eq(want + wl - 23, "| 3.14|z   |%|beef tail");
	ck_assert_int_eq(snprintf(0, 0, "head %d|%s|%5.2f|%-4c|%%|%x tail", -42, big, 3.14159, 'z', 0xbeefu), wl);
	for (size_t n = 1; n < (size_t)wl + 20; n += n < 100 ? 1 : 37) {
		memset(buf, '#', sizeof buf);
		int r = snprintf(buf, n, "head %d|%s|%5.2f|%-4c|%%|%x tail", -42, big, 3.14159, 'z', 0xbeefu);
		size_t kept = n - 1 < (size_t)wl ? n - 1 : (size_t)wl;
		ck_assert_int_eq(r, wl);
		if (memcmp(buf, want, kept) || buf[kept] != 0)
			ck_abort_msg("snprintf with n=%zu: wrong text or no terminator", n);
		for (size_t i = n; i < sizeof buf; i++)
			if (buf[i] != '#') ck_abort_msg("snprintf with n=%zu wrote s[%zu]", n, i);
	}
	/* an empty result, and a conversion that fails */
	buf[0] = '#';
	ck_assert_int_eq(snprintf(buf, sizeof buf, "%s", ""), 0);
	ck_assert_int_eq(buf[0], 0);
	ck_assert_int_eq(snprintf(buf, one, "%d", 123456), 6);
	ck_assert_int_eq(buf[0], 0);
}
END_TEST

/* strlen (x86_64's own: src/arch/x86_64/strlen.c): every start offset
 * in a block, every length to 200, against a byte loop; a string that
 * ends at the edge of an inaccessible page, and one in a malloc'd
 * block of its size exactly (read past its end under memcheck without
 * a report, in the valgrind mode) */
START_TEST(strlen_offsets_edges)
{
	enum { ROOM = 512 };
	long pg = sysconf(_SC_PAGESIZE);
	char *buf = malloc(ROOM), *map;

	for (size_t off = 0; off < 40; off++)
		for (size_t n = 0; n < 200; n++) {
			size_t want = 0;
			memset(buf, 'a', ROOM);
			buf[off + n] = 0;
			while (buf[off + want]) want++;
			if (strlen(buf + off) != want) ck_abort_msg("strlen(+%zu) of %zu", off, n);
		}
	free(buf);
	map = mmap(0, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(map, MAP_FAILED);
	ck_assert_int_eq(mprotect(map + pg, pg, PROT_NONE), 0);
	for (int len = 0; len < 100; len++) {
		char *s = map + pg - len - 1, *h = malloc(len + 1);
		memset(s, 'x', len);
		s[len] = 0;
		ck_assert_uint_eq(strlen(s), (size_t)len);
		memset(h, 'y', len);
		h[len] = 0;
		ck_assert_uint_eq(strlen(h), (size_t)len);
		free(h);
	}
	munmap(map, 2 * pg);
}
END_TEST

/* tolower and toupper in line (include/ctype.h, when optimizing, as
 * this file is compiled): the same answers as musl's functions for EOF,
 * every byte and values beyond */
START_TEST(ctype_inline_same)
{
#ifndef __green_ctype_inline
	ck_abort_msg("include/ctype.h's tolower and toupper are not in line here");
#endif
	for (int c = -300; c < 600; c++) {
		if (tolower(c) != (tolower)(c)) ck_abort_msg("tolower(%d): %d, not %d", c, tolower(c), (tolower)(c));
		if (toupper(c) != (toupper)(c)) ck_abort_msg("toupper(%d): %d, not %d", c, toupper(c), (toupper)(c));
	}
	ck_assert_int_eq(tolower(INT_MIN), (tolower)(INT_MIN));
	ck_assert_int_eq(toupper(INT_MAX), (toupper)(INT_MAX));
}
END_TEST

/* vsnprintf's quick formats (src/members/vsnprintf.c) and the ones it
 * leaves to vfprintf: each output, length and truncation the same as
 * vfprintf's into a memory stream (a FILE of musl's own) */
static void same_as_stdio(int line, const char *fmt, ...)
{
	char *want = 0, got[600];
	size_t wl = 0, ns[] = { 0, 1, 2, 3, 0, 0, 0, sizeof got };
	va_list ap, aq;
	FILE *f = open_memstream(&want, &wl);

	ck_assert_ptr_nonnull(f);
	va_start(ap, fmt);
	va_copy(aq, ap);
	ck_assert_int_ge(vfprintf(f, fmt, aq), 0);
	va_end(aq);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_uint_lt(wl, sizeof got);
	ns[4] = wl ? wl - 1 : 0;
	ns[5] = wl;
	ns[6] = wl + 1;
	for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
		size_t n = ns[i], kept = n ? (n - 1 < wl ? n - 1 : wl) : 0;
		int r;
		memset(got, '#', sizeof got);
		va_copy(aq, ap);
		r = vsnprintf(n ? got : 0, n, fmt, aq);
		va_end(aq);
		if (r != (int)wl || (n && (memcmp(got, want, kept) || got[kept] != 0)) ||
		    (n < sizeof got && got[n] != '#'))
			ck_abort_msg("line %d: \"%s\" with n=%zu: %d \"%.*s\", not %zu \"%s\"", line, fmt, n, r,
			             (int)kept, got, wl, want);
	}
	va_end(ap);
	free(want);
}
#define SAME(...) same_as_stdio(__LINE__, __VA_ARGS__)

START_TEST(snprintf_quick_formats)
{
	/* what the quick path takes */
	SAME("plain text, no conversion");
	SAME("%s: %s\r\n", "Date", "Sun, 29 Nov 2026 08:30:00 GMT");
	SAME("HTTP/%s %i %s\r\n", "1.1", 200, "OK");
	SAME("%0*lld|%0*lld|%0*lld|%0*lld", 2, 5LL, 4, 2026LL, 2, -5LL, 3, 0LL);
	SAME("%d|%i|%u|%x|%X|%d", INT_MIN, -1, UINT_MAX, 0xbeefu, 0xbeefu, INT_MAX);
	SAME("%ld %lu %lld %llu %zu %zd %jd %td %lx %llX", LONG_MIN, ULONG_MAX, LLONG_MIN, ULLONG_MAX,
	     (size_t)SIZE_MAX, (ssize_t)-3, INTMAX_MIN, (ptrdiff_t)-7, 0xabcdefUL, 0xABCDEF12345ULL);
	SAME("%5d|%05d|%5s|%05s|%.3s|%.*s|%*d|%0*d|%10.2s|", -42, -42, "ab", "ab", "abcdef", 2, "xyz",
	     6, 7, 6, -7, "hello");
	SAME("%%|%c|%c|%c", 'a', 0, 255);
	SAME("%s|%.*s|%.0s|%.10s", (char *)0, -1, "whole", "none", "short");
	SAME("%64d|%064u|%64s", 1, 2u, "right");
	SAME("\"%lx.%ld\"", 0x5f3e2a1bUL, 1024L);
	/* what it leaves to vfprintf, from the start */
	SAME("%65d|%-5d|%+d|% d|%#x|%.3d|%5c|%hd|%hhu", 1, 2, 3, 4, 5u, 6, 'c', (short)-8, (unsigned char)9);
	SAME("%s %*d %s", "wide", 100, 1, "pad");
	SAME("%s %*d", "left", -6, 1);
	SAME("%p %f %g %e %o", (void *)0x1234, 1.5, 0.25, 1e10, 8u);
	SAME("%2$s %1$s", "b", "a");
	SAME("%lc|%ls", (wint_t)'w', L"wide");
}
END_TEST

Suite *suite_string(void)
{
	Suite *s = suite_create("string");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, memcpy_sizes_offsets);
	tcase_add_test(tc, memmove_overlaps);
	tcase_add_test(tc, memchr_offsets_lengths);
	tcase_add_test(tc, memchr_beyond_object);
	tcase_add_test(tc, snprintf_truncates);
	tcase_add_test(tc, snprintf_quick_formats);
#ifdef __x86_64__
	tcase_add_test(tc, strlen_offsets_edges);
#endif
	tcase_add_test(tc, ctype_inline_same);
	suite_add_tcase(s, tc);
	return s;
}
