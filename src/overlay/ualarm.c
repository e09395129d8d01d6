/* ualarm — through green's setitimer (alarm.c). */
#include <unistd.h>
#include <sys/time.h>

useconds_t ualarm(useconds_t value, useconds_t interval)
{
	struct itimerval it = {
		.it_interval.tv_sec = interval / 1000000, .it_interval.tv_usec = interval % 1000000,
		.it_value.tv_sec = value / 1000000, .it_value.tv_usec = value % 1000000,
	}, old = { 0 };
	setitimer(ITIMER_REAL, &it, &old);
	return old.it_value.tv_sec * 1000000 + old.it_value.tv_usec;
}
