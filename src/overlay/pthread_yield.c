/* pthread_yield — glibc's calls its own sched_yield, past green's. */
#include <sched.h>

int pthread_yield(void)
{
	return sched_yield();
}
