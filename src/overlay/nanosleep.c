/*
 * nanosleep — glibc's calls its own clock_nanosleep, past green's; this
 * one parks only the caller (clock_nanosleep.c in src/stubs).
 */
#include <time.h>
#include <errno.h>

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	int r = clock_nanosleep(CLOCK_REALTIME, 0, req, rem);
	if (r) {
		errno = r;
		return -1;
	}
	return 0;
}
