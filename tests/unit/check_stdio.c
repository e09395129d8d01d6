/* check_stdio.c — Check suite: stdio FILE locking between threads. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include "testutil.h"

#define LOAD(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)

static FILE *f;

/* ---- whole lines under flockfile */

#define NWRITERS 4
#define LINES 25
#define BODY 12

static void *write_lines(void *arg)
{
	int id = (int)(intptr_t)arg;
	for (int k = 0; k < LINES; k++) {
		flockfile(f);
		fprintf(f, "%c%02d:", 'A' + id, k);
		for (int j = 0; j < BODY; j++) {
			putc('a' + id, f);
			sched_yield();          /* others run while the line is half done */
		}
		fputs("|end\n", f);
		funlockfile(f);
		sched_yield();
	}
	return 0;
}

/* Threads writing lines with fprintf, putc and fputs, yielding between
 * characters inside flockfile/funlockfile: every line comes out whole,
 * each thread's lines in order. */
START_TEST(flockfile_lines_whole)
{
	pthread_t t[NWRITERS];
	char line[128];
	int next[NWRITERS] = { 0 }, i, n = 0;

	f = tmpfile();
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < NWRITERS; i++) SPAWN(&t[i], write_lines, (void *)(intptr_t)i);
	for (i = 0; i < NWRITERS; i++) JOIN(t[i], 0);
	rewind(f);
	while (fgets(line, sizeof line, f)) {
		int id = line[0] - 'A', k;
		ck_assert_msg(id >= 0 && id < NWRITERS, "bad line: %s", line);
		ck_assert_int_eq(sscanf(line + 1, "%2d", &k), 1);
		ck_assert_int_eq(k, next[id]++);
		ck_assert_int_eq(line[3], ':');
		for (int j = 0; j < BODY; j++)
			ck_assert_msg(line[4 + j] == 'a' + id, "interleaved line: %s", line);
		ck_assert_str_eq(line + 4 + BODY, "|end\n");
		n++;
	}
	ck_assert_int_eq(n, NWRITERS * LINES);
	fclose(f);
}
END_TEST

/* ---- putc and getc shared by several threads */

#define PER_THREAD 600

static void *put_letters(void *arg)
{
	int c = 'a' + (int)(intptr_t)arg;
	for (int i = 0; i < PER_THREAD; i++) {
		ck_assert_int_eq(i % 2 ? putc(c, f) : fputc(c, f), c);
		if (i % 3 == 0) sched_yield();
	}
	return 0;
}

/* Several threads putc to one memory stream: no character is lost or
 * duplicated. */
START_TEST(putc_shared)
{
	pthread_t t[NWRITERS];
	char *buf = 0;
	size_t len = 0;
	int counts[NWRITERS] = { 0 }, i;

	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < NWRITERS; i++) SPAWN(&t[i], put_letters, (void *)(intptr_t)i);
	for (i = 0; i < NWRITERS; i++) JOIN(t[i], 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_uint_eq(len, NWRITERS * PER_THREAD);
	for (size_t j = 0; j < len; j++) {
		ck_assert(buf[j] >= 'a' && buf[j] < 'a' + NWRITERS);
		counts[buf[j] - 'a']++;
	}
	for (i = 0; i < NWRITERS; i++) ck_assert_int_eq(counts[i], PER_THREAD);
	free(buf);
}
END_TEST

#define LETTERS 26
#define REPEAT 150

static void *get_letters(void *arg)
{
	int *counts = arg, c, n = 0;
	while ((c = n % 2 ? getc(f) : fgetc(f)) != EOF) {
		ck_assert(c >= 'a' && c < 'a' + LETTERS);
		counts[c - 'a']++;
		if (++n % 5 == 0) sched_yield();
	}
	return 0;
}

/* Several threads getc from one FILE: together they read every character
 * exactly once. */
START_TEST(getc_shared)
{
	pthread_t t[NWRITERS];
	int counts[NWRITERS][LETTERS] = { { 0 } }, i, j;

	f = tmpfile();
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < REPEAT; i++)
		for (j = 0; j < LETTERS; j++) putc('a' + j, f);
	rewind(f);
	for (i = 0; i < NWRITERS; i++) SPAWN(&t[i], get_letters, counts[i]);
	for (i = 0; i < NWRITERS; i++) JOIN(t[i], 0);
	for (j = 0; j < LETTERS; j++) {
		int sum = 0;
		for (i = 0; i < NWRITERS; i++) sum += counts[i][j];
		ck_assert_int_eq(sum, REPEAT);
	}
	fclose(f);
}
END_TEST

/* ---- ftrylockfile */

static int ready, go, wrote;

static void *hold_file(void *arg)
{
	flockfile(f);
	fputc('A', f);
	STORE(&ready, 1);
	while (!LOAD(&go)) sched_yield();       /* holds the lock across yields */
	fputc('B', f);
	funlockfile(f);
	return 0;
}

static void *put_x(void *arg)
{
	ck_assert_int_eq(putc('x', f), 'x');
	STORE(&wrote, 1);
	return 0;
}

static void *try_file(void *arg)
{
	int r = ftrylockfile(f);
	if (!r) funlockfile(f);
	return (void *)(intptr_t)r;
}

/* While one thread holds a FILE's lock (yielding meanwhile), ftrylockfile
 * from another thread fails and a putc waits for the release; the owner
 * may relock recursively. */
START_TEST(ftrylockfile_held)
{
	char *buf = 0;
	size_t len = 0;
	pthread_t h, x, tr;
	void *res;

	ready = go = wrote = 0;
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	SPAWN(&h, hold_file, 0);
	while (!LOAD(&ready)) sched_yield();
	ck_assert_int_ne(ftrylockfile(f), 0);
	SPAWN(&tr, try_file, 0);
	JOIN(tr, &res);
	ck_assert_int_ne((intptr_t)res, 0);
	SPAWN(&x, put_x, 0);
	for (int i = 0; i < 5; i++) sched_yield();
	if (GREEN_MODE) ck_assert_int_eq(wrote, 0);   /* x is waiting for the lock */
	STORE(&go, 1);
	JOIN(h, 0);
	JOIN(x, 0);
	ck_assert_int_eq(ftrylockfile(f), 0);
	ck_assert_int_eq(ftrylockfile(f), 0);   /* recursive for the owner */
	funlockfile(f);
	funlockfile(f);
	SPAWN(&tr, try_file, 0);
	JOIN(tr, &res);
	ck_assert_int_eq((intptr_t)res, 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_str_eq(buf, "ABx");
	free(buf);
}
END_TEST

Suite *suite_stdio(void)
{
	Suite *s = suite_create("stdio");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, flockfile_lines_whole);
	tcase_add_test(tc, putc_shared);
	tcase_add_test(tc, getc_shared);
	tcase_add_test(tc, ftrylockfile_held);
	suite_add_tcase(s, tc);
	return s;
}
