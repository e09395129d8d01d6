/* racy: a worker updates a total under a mutex, the main thread reads it
 * without: one report whose current access holds the mutex ("mutexes:
 * write M0"), with the stack that created it (tests/race/race.sh) */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock;
static long total;

static void *adder(void *arg)
{
	pthread_mutex_lock(&lock);
	total += 5;
	pthread_mutex_unlock(&lock);
	return 0;
}

int main(void)
{
	pthread_t t;
	long seen;
	pthread_mutex_init(&lock, 0);
	total = 1;
	pthread_create(&t, 0, adder, 0);
	seen = total;
	pthread_join(t, 0);
	pthread_mutex_destroy(&lock);
	printf("%ld %ld\n", seen, total);
	return 0;
}
