/* two-stage — a check made in two critical sections while many workers
 * publish in two (the "twostage" program of the concurrency-bug
 * benchmarks, with 99 workers).  Each worker sets data1 under one lock,
 * then, under another, data2 = data1 + 1.  The checker, created last,
 * reads data1 under the first lock and data2 under the second and wants
 * data2 == data1 + 1.  It fails only if the checker runs between one
 * worker's two critical sections and before any worker finishes its
 * second: every worker must be held back while main creates the rest,
 * and the checker, one thread among a hundred, must be the one to run
 * at that moment. */
#include <assert.h>
#include <pthread.h>

#define WORKERS 99

static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;
static int data1, data2;

static void *worker(void *arg)
{
	pthread_mutex_lock(&m1);
	data1 = 1;
	pthread_mutex_unlock(&m1);
	pthread_mutex_lock(&m2);
	data2 = data1 + 1;
	pthread_mutex_unlock(&m2);
	return arg;
}

static void *checker(void *arg)
{
	int t1, t2;
	pthread_mutex_lock(&m1);
	if (!data1) {
		pthread_mutex_unlock(&m1);
		return arg;
	}
	t1 = data1;
	pthread_mutex_unlock(&m1);
	pthread_mutex_lock(&m2);
	t2 = data2;
	pthread_mutex_unlock(&m2);
	assert(t2 == t1 + 1);
	return arg;
}

int main(void)
{
	pthread_t t[WORKERS + 1];
	for (int i = 0; i < WORKERS; i++) pthread_create(&t[i], 0, worker, 0);
	pthread_create(&t[WORKERS], 0, checker, 0);
	for (int i = 0; i <= WORKERS; i++) pthread_join(t[i], 0);
	return 0;
}
