/*
 * config.c — the environment variables (documented in docs/environment.md).
 *
 *   GREEN_STACK_SIZE   default stack size of new threads, bytes; K/M suffix
 *   GREEN_STACKS       separate | copied: default stack mode
 *   GREEN_QUANTUM_MS   time slice in ms, up to three decimals (0.05 is
 *                      50 us); 0 = cooperative only
 *   GREEN_COPIED_REGION  how deep a copied thread's stack may grow,
 *                      bytes; K/M suffix
 *   GREEN_COPIED_HOT   how many copied threads keep their stacks mapped
 *                      (fixed; unset, the hot set grows: copied.c)
 *   GREEN_SCHED        random:SEED | pct:SEED[:DEPTH[:STEPS]] | pos:SEED | class:SEED[:DEPTH[:TOUCHES[:STEPS]]]: seeded
 *                      schedules (explore.c); turns the tick off
 *   GREEN_AIO          ring | threads: how POSIX AIO does its I/O (aio.c)
 *   GREEN_IO           select | poll | epoll: the multiplexer's backend
 *                      (poll.c); unset, chosen by the size of the wait set
 *   GREEN_DEBUG        1: exited threads' stacks and descriptors are
 *                      quarantined, and a late touch is named (quarantine.c),
 *                      and invariants are checked at every switch (check.h);
 *                      checks: the checks alone
 *
 * Read once, with getenv only (no system call).  A malformed value is
 * reported by name and ignored; so is a GREEN_ name close to one of
 * these (a misspelling: see near()).
 */
#include <stdlib.h>
#include <string.h>
#include "base/gthread.h"
#include "base/report.h"
#include "base/gconfig.h"

hidden struct green_config __green_config;

/* Milliseconds with at most three decimals, as microseconds: "2" is
 * 2000, "0.05" is 50. */
static int parse_ms(const char *s, long *out)
{
	long v = 0;
	int decimals = -1;
	if (!*s) return -1;
	for (; *s; s++) {
		if (*s == '.' && decimals < 0) { decimals = 0; continue; }
		if (*s < '0' || *s > '9' || decimals == 3 || v > 100000000) return -1;
		v = v * 10 + (*s - '0');
		if (decimals >= 0) decimals++;
	}
	if (decimals == 0) return -1;   /* "5." */
	for (decimals = decimals < 0 ? 0 : decimals; decimals < 3; decimals++) v *= 10;
	*out = v;
	return 0;
}

static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s) return -1;
	if (*end == 'k' || *end == 'K') v <<= 10, end++;
	else if (*end == 'm' || *end == 'M') v <<= 20, end++;
	if (*end || v == 0 || v > (1ULL << 40)) return -1;
	*out = v;
	return 0;
}

/* a decimal number in [lo, hi] up to the next ':' or the end; one
 * beyond 2^64-1 is malformed (strtoull would saturate) */
static int parse_field(const char **s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	const char *p = *s;
	uint64_t v = 0;
	if (*p < '0' || *p > '9') return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (*p - '0')) / 10) return -1;
		v = v * 10 + (*p - '0');
	}
	if ((*p && *p != ':') || v < lo || v > hi) return -1;
	*s = *p ? p + 1 : p;
	*out = v;
	return 0;
}

static int parse_sched(const char *s)
{
	struct green_config *c = &__green_config;
	uint64_t v;
	int mode;

	if (!strncmp(s, "random:", 7)) mode = GREEN_SCHED_RANDOM, s += 7;
	else if (!strncmp(s, "pct:", 4)) mode = GREEN_SCHED_PCT, s += 4;
	else if (!strncmp(s, "pos:", 4)) mode = GREEN_SCHED_POS, s += 4;
	else if (!strncmp(s, "class:", 6)) mode = GREEN_SCHED_CLASS, s += 6;
	else return -1;
	if (parse_field(&s, 0, UINT64_MAX, &c->sched_seed)) return -1;
	if (*s && (mode == GREEN_SCHED_PCT || mode == GREEN_SCHED_CLASS)) {
		if (parse_field(&s, 1, 10, &v)) return -1;
		c->sched_depth = v;
		if (*s && mode == GREEN_SCHED_CLASS && parse_field(&s, 1, 1ULL << 40, &c->sched_touches))
			return -1;
		if (*s && parse_field(&s, 1, 1ULL << 40, &c->sched_steps)) return -1;
	}
	if (*s) return -1;
	c->sched_mode = mode;
	return 0;
}

static const char *const known[] = {
	"STACK_SIZE", "STACKS", "COPIED_REGION", "COPIED_HOT", "QUANTUM_MS", "SCHED", "AIO", "IO", "DEBUG", "RECORDING",
};

/* Is a (the part after GREEN_, up to '=') a misspelling of k: the same
 * but for case, up to two letters changed, added, dropped or swapped, or
 * one a prefix of the other (QUANTUM for QUANTUM_MS)? */
static int near(const char *a, size_t n, const char *k)
{
	size_t m = strlen(k), i, j;
	unsigned d[24][24];
	if (n >= 24 || m >= 24) return 0;
	if (n >= 3 && (!strncmp(a, k, n < m ? n : m))) return 1;
	for (i = 0; i <= n; i++) d[i][0] = i;
	for (j = 0; j <= m; j++) d[0][j] = j;
	for (i = 1; i <= n; i++)
		for (j = 1; j <= m; j++) {
			unsigned c = (a[i-1] | 32) != (k[j-1] | 32), v = d[i-1][j-1] + c;
			if (d[i-1][j] + 1 < v) v = d[i-1][j] + 1;
			if (d[i][j-1] + 1 < v) v = d[i][j-1] + 1;
			if (i > 1 && j > 1 && a[i-1] == k[j-2] && a[i-2] == k[j-1] && d[i-2][j-2] + 1 < v)
				v = d[i-2][j-2] + 1;
			d[i][j] = v;
		}
	return d[n][m] <= 2;
}

/* Each GREEN_ variable that is not one of ours but nearly is: once. */
static void misspelt(void)
{
	extern char **__environ;
	char **e;
	size_t i, n;
	for (e = __environ; e && *e; e++) {
		const char *a = *e + 6;
		if (strncmp(*e, "GREEN_", 6)) continue;
		n = strcspn(a, "=");
		for (i = 0; i < sizeof known / sizeof *known; i++)
			if (strlen(known[i]) == n && !strncmp(a, known[i], n)) break;
		if (i < sizeof known / sizeof *known) continue;
		for (i = 0; i < sizeof known / sizeof *known; i++)
			if (near(a, n, known[i])) {
				__green_say("green: ignoring GREEN_%.*s (unknown; did you mean GREEN_%s?)\n",
				            (int)n, a, known[i]);
				break;
			}
	}
}

hidden void __green_config_load(void)
{
	const char *s;
	if (__green_config.loaded) return;
	__green_config.loaded = 1;
	__green_config.quantum_us = -1;   /* default chosen by the timer code */
	misspelt();

	if ((s = getenv("GREEN_STACK_SIZE")) && *s) {
		size_t v;
		if (parse_size(s, &v) || v < PTHREAD_STACK_MIN)
			__green_say("green: ignoring GREEN_STACK_SIZE=%s (want bytes >= %d, K or M suffix)\n",
			            s, PTHREAD_STACK_MIN);
		else
			__green_config.stack_size = v;
	}
	if ((s = getenv("GREEN_STACKS")) && *s) {
		if (!strcmp(s, "separate")) __green_config.stack_mode = GREEN_STACK_SEPARATE;
		else if (!strcmp(s, "copied")) __green_config.stack_mode = GREEN_STACK_COPIED;
		else __green_say("green: ignoring GREEN_STACKS=%s (want separate or copied)\n", s);
	}
	if ((s = getenv("GREEN_COPIED_REGION")) && *s) {
		size_t v;
		if (parse_size(s, &v) || v < GREEN_COPIED_REGION_MIN)
			__green_say("green: ignoring GREEN_COPIED_REGION=%s (want bytes >= %d, K or M suffix)\n",
			            s, GREEN_COPIED_REGION_MIN);
		else
			__green_config.region_size = v;
	}
	if ((s = getenv("GREEN_COPIED_HOT")) && *s) {
		char *e;
		unsigned long v = strtoul(s, &e, 10);
		if (*e || v < GREEN_COPIED_HOT_MIN || v > GREEN_COPIED_HOT_MAX)
			__green_say("green: ignoring GREEN_COPIED_HOT=%s (want %d..%d)\n",
			            s, GREEN_COPIED_HOT_MIN, GREEN_COPIED_HOT_MAX);
		else
			__green_config.copied_hot = v;
	}
	if ((s = getenv("GREEN_QUANTUM_MS")) && *s) {
		long us;
		if (parse_ms(s, &us) || (us && us < 10) || us > 60000000)
			__green_say("green: ignoring GREEN_QUANTUM_MS=%s (want 0, or 0.01..60000)\n", s);
		else
			__green_config.quantum_us = us;
	}
	if ((s = getenv("GREEN_AIO")) && *s) {
		if (!strcmp(s, "ring")) __green_config.aio_threads = 0;
		else if (!strcmp(s, "threads")) __green_config.aio_threads = 1;
		else __green_say("green: ignoring GREEN_AIO=%s (want ring or threads)\n", s);
	}
	if ((s = getenv("GREEN_IO")) && *s) {
		if (!strcmp(s, "select")) __green_config.io_backend = GREEN_IO_SELECT;
		else if (!strcmp(s, "poll")) __green_config.io_backend = GREEN_IO_POLL;
		else if (!strcmp(s, "epoll")) __green_config.io_backend = GREEN_IO_EPOLL;
		else __green_say("green: ignoring GREEN_IO=%s (want select, poll or epoll)\n", s);
	}
	if ((s = getenv("GREEN_DEBUG")) && *s) {
		if (!strcmp(s, "1")) __green_config.debug = GREEN_DEBUG_QUARANTINE | GREEN_DEBUG_CHECKS;
		else if (!strcmp(s, "checks")) __green_config.debug = GREEN_DEBUG_CHECKS;
		else if (strcmp(s, "0")) __green_say("green: ignoring GREEN_DEBUG=%s (want 0, 1 or checks)\n", s);
	}
	if ((s = getenv("GREEN_SCHED")) && *s) {
		if (strlen(s) >= sizeof __green_config.sched_text || parse_sched(s)) {
			__green_config.sched_mode = GREEN_SCHED_OFF;
			__green_say("green: ignoring GREEN_SCHED=%s (want random:SEED, pct:SEED[:DEPTH[:STEPS]],"
			            " pos:SEED or class:SEED[:DEPTH[:TOUCHES[:STEPS]]], DEPTH 1..10)\n", s);
		} else {
			strcpy(__green_config.sched_text, s);
			__green_config.quantum_us = 0;   /* nothing may depend on timing */
			__green_explore_init();
		}
	}
}
