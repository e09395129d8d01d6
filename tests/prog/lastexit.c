/*
 * lastexit.c — main calls pthread_exit while two threads still work; the
 * process lives until both have printed and finished, then exits 0.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

static void *work(void *arg)
{
	for (int i = 0; i < 5; i++) {
		usleep(2000);
		sched_yield();
	}
	printf("%s done\n", (char *)arg);
	return 0;
}

int main(void)
{
	pthread_t t;

	if (pthread_create(&t, 0, work, "one")) return 1;
	if (pthread_create(&t, 0, work, "two")) return 1;
	pthread_exit(0);
}
