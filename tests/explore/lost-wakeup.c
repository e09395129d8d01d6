/* lost-wakeup — `if` instead of `while` around pthread_cond_wait.  A
 * consumer woken for an item can find it already taken by a consumer
 * that got the mutex first, and takes from an empty queue. */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int items, taken;

static void *consumer(void *arg)
{
	pthread_mutex_lock(&m);
	if (items == 0)                       /* must be while */
		pthread_cond_wait(&c, &m);
	assert(items > 0);
	items--;
	taken++;
	pthread_mutex_unlock(&m);
	return 0;
}

static void *producer(void *arg)
{
	for (int i = 0; i < 2; i++) {
		pthread_mutex_lock(&m);
		items++;
		pthread_cond_signal(&c);
		pthread_mutex_unlock(&m);
	}
	return 0;
}

int main(void)
{
	pthread_t c1, c2, p;
	pthread_create(&c1, 0, consumer, 0);
	pthread_create(&c2, 0, consumer, 0);
	pthread_create(&p, 0, producer, 0);
	pthread_join(c1, 0);
	pthread_join(c2, 0);
	pthread_join(p, 0);
	assert(taken == 2);
	return 0;
}
