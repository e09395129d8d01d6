/* pthread_mutex_consistent_np — glibc's old name, on green's mutex. */
#include <pthread.h>

int pthread_mutex_consistent_np(pthread_mutex_t *m)
{
	return pthread_mutex_consistent(m);
}
