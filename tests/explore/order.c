/* order — use before initialisation.  main starts the worker and only
 * then sets up the configuration the worker reads: fine as long as main
 * keeps the CPU after pthread_create, as a FIFO scheduler lets it. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct config { int workers; };
static struct config *cfg;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int started;

static void *worker(void *arg)
{
	pthread_mutex_lock(&m);
	started++;
	pthread_mutex_unlock(&m);
	assert(cfg != NULL);                /* main may not have got to it yet */
	return (void *)(long)cfg->workers;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	cfg = malloc(sizeof *cfg);       /* too late if the worker ran first */
	cfg->workers = 1;
	pthread_join(t, 0);
	return 0;
}
