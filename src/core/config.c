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
 *   GREEN_SCHED        random:SEED | pct:SEED[:DEPTH[:STEPS]]: seeded
 *                      schedules (explore.c); turns the tick off
 *   GREEN_AIO          ring | threads: how POSIX AIO does its I/O (aio.c)
 *   GREEN_IO           select | poll | epoll: the multiplexer's backend
 *                      (poll.c); unset, chosen by the size of the wait set
 *
 * Read once, with getenv only (no system call).  A malformed value is
 * reported by name and ignored.
 */
#include <stdlib.h>
#include <string.h>
#include "io.h"

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

/* a decimal number in [lo, hi] up to the next ':' or the end */
static int parse_field(const char **s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;
	unsigned long long v;
	if (**s < '0' || **s > '9') return -1;
	v = strtoull(*s, &end, 10);
	if ((*end && *end != ':') || v < lo || v > hi) return -1;
	*s = *end ? end + 1 : end;
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
	else return -1;
	if (parse_field(&s, 0, UINT64_MAX, &c->sched_seed)) return -1;
	if (*s && mode == GREEN_SCHED_PCT) {
		if (parse_field(&s, 1, 10, &v)) return -1;
		c->sched_depth = v;
		if (*s && parse_field(&s, 1, 1ULL << 40, &c->sched_steps)) return -1;
	}
	if (*s) return -1;
	c->sched_mode = mode;
	return 0;
}

hidden void __green_config_load(void)
{
	const char *s;
	if (__green_config.loaded) return;
	__green_config.loaded = 1;
	__green_config.quantum_us = -1;   /* default chosen by the timer code */

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
		if (parse_size(s, &v) || v < 16384)
			__green_say("green: ignoring GREEN_COPIED_REGION=%s (want bytes >= 16384, K or M suffix)\n", s);
		else
			__green_config.region_size = v;
	}
	if ((s = getenv("GREEN_COPIED_HOT")) && *s) {
		char *e;
		unsigned long v = strtoul(s, &e, 10);
		if (*e || v < 4 || v > 65535)
			__green_say("green: ignoring GREEN_COPIED_HOT=%s (want 4..65535)\n", s);
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
	if ((s = getenv("GREEN_SCHED")) && *s) {
		if (strlen(s) >= sizeof __green_config.sched_text || parse_sched(s)) {
			__green_config.sched_mode = GREEN_SCHED_OFF;
			__green_say("green: ignoring GREEN_SCHED=%s (want random:SEED or pct:SEED[:DEPTH[:STEPS]],"
			            " DEPTH 1..10)\n", s);
		} else {
			strcpy(__green_config.sched_text, s);
			__green_config.quantum_us = 0;   /* nothing may depend on timing */
			__green_explore_init();
		}
	}
}
