/* livelock — a thread that polls a flag nobody sets, with no call in its
 * loop: no scheduling point, so no schedule ends it.  tests/explore/explore.sh:
 * a run green-explore stops for its timeout still reports its schedule
 * hash and step count. */
#include <pthread.h>

static volatile int flag;

static void *poller(void *arg)
{
	while (!flag)
		;
	return arg;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, poller, 0);
	pthread_join(t, 0);
	return 0;
}
