/* exit-uaf — use after free on thread exit.  A worker publishes its
 * per-thread statistics, which a key destructor frees when the worker
 * exits; main reads them once more after telling the worker to finish.
 * The destructor poisons the block before freeing it, so a read after
 * the free is caught by the assertion rather than left to chance. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

#define LIVE 0x5eed
struct stats { int magic, count; };
static pthread_key_t key;
static struct stats *published;
static sem_t ready, done;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void drop(void *p)
{
	((struct stats *)p)->magic = 0;    /* poison, then free */
	free(p);
}

static void *worker(void *arg)
{
	struct stats *s = malloc(sizeof *s);
	s->magic = LIVE;
	s->count = 1;
	pthread_setspecific(key, s);
	published = s;
	sem_post(&ready);
	sem_wait(&done);
	pthread_mutex_lock(&m);
	s->count++;
	pthread_mutex_unlock(&m);
	return 0;                          /* drop() frees s */
}

int main(void)
{
	pthread_t t;
	int magic;
	pthread_key_create(&key, drop);
	sem_init(&ready, 0, 0);
	sem_init(&done, 0, 0);
	pthread_create(&t, 0, worker, 0);
	pthread_detach(t);
	sem_wait(&ready);
	pthread_mutex_lock(&m);
	published->count++;
	pthread_mutex_unlock(&m);
	sem_post(&done);
	pthread_mutex_lock(&m);
	magic = published->magic;          /* the worker may have exited */
	pthread_mutex_unlock(&m);
	assert(magic == LIVE);
	return 0;
}
