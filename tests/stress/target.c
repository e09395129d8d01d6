/*
 * target.c — the child of forwarder.c (tests/stress/forward.sh): a
 * server's start-up shape.  It installs its SIGINT and SIGTERM handlers
 * first, while it has one thread, then starts worker threads that
 * compute, sleep and lock, and waits for the signal; on it, it stops
 * the workers and exits 0.  A signal that arrives at any moment of that
 * start-up, threads being created included, must end it.
 *
 *   target NTHREADS
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static unsigned long shared;

static void on_signal(int s)
{
	stop = s;
}

static void *worker(void *arg)
{
	struct timespec ts = { 0, 200000 };
	while (!stop) {
		for (volatile int i = 0; i < 20000; i++)
			;
		pthread_mutex_lock(&m);
		shared++;
		pthread_mutex_unlock(&m);
		nanosleep(&ts, 0);
	}
	return arg;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int n = argc > 1 ? atoi(argv[1]) : 8;
	pthread_t *t = calloc(n, sizeof *t);
	int made = 0;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, 0);
	sigaction(SIGTERM, &sa, 0);
	for (; made < n && !stop; made++)
		if (pthread_create(&t[made], 0, worker, 0)) break;
	while (!stop) pause();
	for (int i = 0; i < made; i++) pthread_join(t[i], 0);
	return 0;
}
