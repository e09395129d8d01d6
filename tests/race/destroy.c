/* racy: a thread signals a condition variable after it has given up the
 * mutex; the waiter wakes on the flag, and frees the structure holding
 * both while the signal may not be over: the free races with
 * pthread_cond_signal's use of the object (tests/race/race.sh) */
#include <pthread.h>
#include <stdlib.h>

struct ctx { pthread_mutex_t m; pthread_cond_t c; int done; };

static void *signaller(void *p)
{
	struct ctx *x = p;
	pthread_mutex_lock(&x->m);
	x->done = 1;
	pthread_mutex_unlock(&x->m);
	pthread_cond_signal(&x->c);
	return 0;
}

int main(void)
{
	struct ctx *x = calloc(1, sizeof *x);
	pthread_t t;
	pthread_mutex_init(&x->m, 0);
	pthread_cond_init(&x->c, 0);
	pthread_create(&t, 0, signaller, x);
	pthread_mutex_lock(&x->m);
	while (!x->done) pthread_cond_wait(&x->c, &x->m);
	pthread_mutex_unlock(&x->m);
	free(x);
	pthread_join(t, 0);
	return 0;
}
