/* race-free: a bounded queue of heap-allocated items between producers
 * and consumers, with a mutex and two condition variables (one of the
 * waits timed) (tests/race/race.sh) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ITEMS 300
#define SLOTS 4

struct item { int n; int payload[4]; };
static struct item *queue[SLOTS];
static int head, count, done;
static long sum;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER, nonfull = PTHREAD_COND_INITIALIZER;

static void *producer(void *arg)
{
	for (int i = 1; i <= ITEMS; i++) {
		struct item *it = malloc(sizeof *it);
		it->n = i;                      /* written before the hand-off */
		for (int k = 0; k < 4; k++) it->payload[k] = i * k;
		pthread_mutex_lock(&m);
		while (count == SLOTS) pthread_cond_wait(&nonfull, &m);
		queue[(head + count++) % SLOTS] = it;
		pthread_cond_signal(&nonempty);
		pthread_mutex_unlock(&m);
	}
	return 0;
}

static void *consumer(void *arg)
{
	long local = 0;
	for (;;) {
		struct item *it;
		pthread_mutex_lock(&m);
		while (!count && !done) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += 5;
			pthread_cond_timedwait(&nonempty, &m, &ts);
		}
		if (!count) {
			pthread_mutex_unlock(&m);
			break;
		}
		it = queue[head];
		head = (head + 1) % SLOTS;
		count--;
		pthread_cond_signal(&nonfull);
		pthread_mutex_unlock(&m);
		local += it->n + it->payload[3];   /* read after the hand-off */
		free(it);
	}
	pthread_mutex_lock(&m);
	sum += local;
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void)
{
	pthread_t p[2], c[3];
	for (int i = 0; i < 2; i++) pthread_create(&p[i], 0, producer, 0);
	for (int i = 0; i < 3; i++) pthread_create(&c[i], 0, consumer, 0);
	for (int i = 0; i < 2; i++) pthread_join(p[i], 0);
	pthread_mutex_lock(&m);
	done = 1;
	pthread_cond_broadcast(&nonempty);
	pthread_mutex_unlock(&m);
	for (int i = 0; i < 3; i++) pthread_join(c[i], 0);
	printf("sum %ld\n", sum);
	return sum == 2L * 4 * ITEMS * (ITEMS + 1) / 2 ? 0 : 1;
}
