/* sleep — parks only the caller; returns the seconds not slept when a
 * handler interrupts it (nanosleep.c). */
#include <unistd.h>
#include <time.h>

unsigned sleep(unsigned s)
{
	struct timespec ts = { .tv_sec = s };
	if (nanosleep(&ts, &ts)) return ts.tv_sec + (ts.tv_nsec > 0);
	return 0;
}
