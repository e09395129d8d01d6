/* alarm — through green's setitimer (src/members): once threads exist the
 * program's ITIMER_REAL is virtual, sharing the real one with the time
 * slice (src/core/sched/tick.c). */
#include <unistd.h>
#include <sys/time.h>

unsigned alarm(unsigned s)
{
	struct itimerval it = { .it_value.tv_sec = s }, old = { 0 };
	setitimer(ITIMER_REAL, &it, &old);
	return old.it_value.tv_sec + (old.it_value.tv_usec > 0);
}
