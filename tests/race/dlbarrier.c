/* racy: a barrier the detector does not see, taken from the libc through
 * dlopen("libpthread.so.0") and dlsym as ThreadSanitizer's own tests do:
 * the two writes it orders for the program are a race for the detector
 * (tests/race/race.sh) */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static int (*barrier_wait)(pthread_barrier_t *);
static pthread_barrier_t barrier;
static int shared;

static void *second(void *arg)
{
	barrier_wait(&barrier);
	shared = 2;
	return 0;
}

int main(void)
{
	void *h = dlopen("libpthread.so.0", RTLD_LAZY);
	pthread_t t;
	if (!h || !(barrier_wait = (int (*)(pthread_barrier_t *))dlsym(h, "pthread_barrier_wait"))) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	pthread_barrier_init(&barrier, 0, 2);
	pthread_create(&t, 0, second, 0);
	shared = 1;
	barrier_wait(&barrier);
	pthread_join(t, 0);
	printf("%d\n", shared);
	return 0;
}
