/* a thread leak: three threads from one place finish unjoined and
 * undetached, a fourth is detached, a fifth joined: one report, "And 2
 * more similar thread leaks" (tests/race/race.sh) */
#include <pthread.h>
#include <sched.h>

static void *work(void *arg)
{
	return arg;
}

static void start_three(void)
{
	pthread_t t;
	for (int i = 0; i < 3; i++) pthread_create(&t, 0, work, 0);
}

int main(void)
{
	pthread_t d, j;
	start_three();
	pthread_create(&d, 0, work, 0);
	pthread_detach(d);
	pthread_create(&j, 0, work, 0);
	pthread_join(j, 0);
	for (int i = 0; i < 10; i++) sched_yield();
	return 0;
}
