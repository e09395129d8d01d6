/* depth3 — a bug of depth 3: the checker must look once between the
 * writer's two steps and once after the second (w1 < c1 < w2 < c2), three
 * ordering constraints.  Unrelated locking around every step gives a
 * scheduler many other places to go. */
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

static int look(void)
{
	int p;
	pthread_mutex_lock(&m);
	p = phase;
	pthread_mutex_unlock(&m);
	return p;
}

static void *writer(void *arg)
{
	work(NOISE);
	step_to(1);                        /* w1 */
	work(NOISE);
	step_to(2);                        /* w2 */
	work(NOISE);
	return 0;
}

static void *checker(void *arg)
{
	int first, second;
	work(NOISE);
	first = look();                    /* c1 */
	work(NOISE);
	second = look();                   /* c2 */
	work(NOISE);
	assert(!(first == 1 && second == 2));   /* saw the half-done state, then the change */
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
