/* depth2 — a bug of depth 2: it shows only if the checker's step falls
 * between the writer's two steps (w1 < c < w2).  Each thread also takes
 * a lock for unrelated work many times, so a random scheduler has many
 * chances to go elsewhere. */
#include <assert.h>
#include <pthread.h>

#define NOISE 20
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER, n = PTHREAD_MUTEX_INITIALIZER;
static int phase, noise;

static void work(int k)
{
	for (int i = 0; i < k; i++) {
		pthread_mutex_lock(&n);
		noise++;
		pthread_mutex_unlock(&n);
	}
}

static void step_to(int p)
{
	pthread_mutex_lock(&m);
	phase = p;
	pthread_mutex_unlock(&m);
}

static void *writer(void *arg)
{
	work(NOISE);
	step_to(1);                        /* w1: half-done */
	work(NOISE);
	step_to(2);                        /* w2: done */
	work(NOISE);
	return 0;
}

static void *checker(void *arg)
{
	int seen;
	work(NOISE);
	pthread_mutex_lock(&m);
	seen = phase;                      /* c */
	pthread_mutex_unlock(&m);
	assert(seen != 1);                 /* saw the half-done state */
	work(NOISE);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, writer, 0);
	pthread_create(&b, 0, checker, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
