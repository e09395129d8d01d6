/*
 * config.c — the environment variables (documented in docs/environment.md).
 *
 *   GREEN_STACK_SIZE   default stack size of new threads, bytes; K/M suffix
 *   GREEN_STACKS       separate | copied: default stack mode
 *   GREEN_QUANTUM_MS   time slice in ms; 0 = cooperative only
 *   GREEN_COPIED_REGION  size of the shared run-stack region of copied
 *                      threads, bytes; K/M suffix
 *
 * Read once, with getenv only (no system call).  A malformed value is
 * reported by name and ignored.
 */
#include <stdlib.h>
#include <string.h>
#include "green.h"

hidden struct green_config __green_config;

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

hidden void __green_config_load(void)
{
	const char *s;
	if (__green_config.loaded) return;
	__green_config.loaded = 1;
	__green_config.quantum_ms = -1;   /* default chosen by the timer code */

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
	if ((s = getenv("GREEN_QUANTUM_MS")) && *s) {
		char *end;
		long v = strtol(s, &end, 10);
		if (*end || v < 0 || v > 60000)
			__green_say("green: ignoring GREEN_QUANTUM_MS=%s (want 0..60000)\n", s);
		else
			__green_config.quantum_ms = v;
	}
}
