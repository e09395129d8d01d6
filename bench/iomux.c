/*
 * iomux.c — the cost of one idle round of green's multiplexer against
 * the size of the wait set: where epoll overtakes select and poll.
 *
 *   iomux THREADS HOPS
 *
 * THREADS threads in a ring, each blocked in read() on its own pipe; one
 * byte goes round, each thread writing it into the next one's pipe.  At
 * every hop the only runnable thread parks and exactly one descriptor
 * becomes ready, so each hop is one idle round over a wait set of
 * THREADS - 1 descriptors.  Prints "iomux THREADS: N hops/s".  Run with
 * GREEN_IO=select, poll and epoll (bench/run.sh does) to find the
 * crossover that poll.c's AUTO_EPOLL_AT is chosen from.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

static int n, hops;
static int (*p)[2];

static void *hop(void *arg)
{
	long i = (long)arg;
	char b;
	for (;;) {
		if (read(p[i][0], &b, 1) != 1) exit(2);
		if (b == 0) break;                     /* stop, passed on */
		b = --hops > 0 ? 1 : 0;
		if (write(p[(i + 1) % n][1], &b, 1) != 1) exit(2);
		if (!b) break;
	}
	if (!b) {
		/* pass the stop round the rest of the ring */
		if (write(p[(i + 1) % n][1], &b, 1) != 1) exit(2);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec a, z;
	struct rlimit rl;
	pthread_t *t;
	pthread_attr_t at;
	int total;
	char one = 1;

	if (argc < 3) {
		fprintf(stderr, "usage: iomux THREADS HOPS\n");
		return 2;
	}
	n = atoi(argv[1]);
	total = hops = atoi(argv[2]);
	getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur < (rlim_t)2 * n + 64 && rl.rlim_max >= (rlim_t)2 * n + 64) {
		rl.rlim_cur = 2 * n + 64;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	p = calloc(n, sizeof *p);
	t = calloc(n, sizeof *t);
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 32768);
	for (int i = 0; i < n; i++)
		if (pipe(p[i])) return perror("pipe"), 2;
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], &at, hop, (void *)i)) return 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (write(p[0][1], &one, 1) != 1) return 2;
	for (int i = 0; i < n; i++) pthread_join(t[i], 0);
	clock_gettime(CLOCK_MONOTONIC, &z);
	printf("iomux %d: %.0f hops/s\n", n, total / (z.tv_sec - a.tv_sec + (z.tv_nsec - a.tv_nsec) / 1e9));
	return 0;
}
