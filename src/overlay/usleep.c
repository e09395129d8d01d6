/* usleep — parks only the caller (nanosleep.c). */
#include <unistd.h>
#include <time.h>

int usleep(useconds_t us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = us % 1000000 * 1000 };
	return nanosleep(&ts, 0);
}
