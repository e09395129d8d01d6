/*
 * exitmain.c — main returns 3 while other threads are blocked for good:
 * the process exits with status 3 at once.
 */
#include <pthread.h>
#include <sched.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static int waiting;

static void *block(void *arg)
{
	pthread_mutex_lock(&m);
	waiting++;
	for (;;) pthread_cond_wait(&never, &m);
	return 0;
}

int main(void)
{
	pthread_t t;
	int n;

	for (int i = 0; i < 3; i++)
		if (pthread_create(&t, 0, block, 0)) return 1;
	do {
		sched_yield();
		pthread_mutex_lock(&m);
		n = waiting;
		pthread_mutex_unlock(&m);
	} while (n < 3);
	return 3;
}
