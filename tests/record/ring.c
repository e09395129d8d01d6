/*
 * ring — a run longer than green-record --last's window (tests/record/
 * record.sh): worker threads, sliced by the tick, read random bytes from
 * a file and compute on them, and send what they found through a pipe to
 * a thread that folds it into a state hash under a mutex and prints a
 * line every 50 records; an interval timer ticks beside them.  Each
 * worker sleeps a millisecond a round, so the trace grows at much the
 * same rate per second however busy the machine is.  The run
 * lasts SECONDS of the monotonic clock (argument 1; the clock is
 * recorded, so a replay ends at the same record), then prints the final
 * state and, with "crash" (argument 2), writes through a null pointer.
 * A replay from the ring's checkpoint must print the recording's last
 * lines exactly and die of the same fault.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define WORKERS 3
#define CHUNK 512

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t state = 0xcbf29ce484222325ull;
static uint64_t deadline;
static int pipefd[2];
static const char *file;
static volatile sig_atomic_t alarms;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void fold(uint64_t v)
{
	state = (state ^ v) * 0x100000001b3ull;
}

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

struct rec { uint32_t worker, round; uint64_t h; };

static void *worker(void *arg)
{
	unsigned char buf[CHUNK];
	struct timespec pause = { 0, 1000000 };
	uint32_t id = (uint32_t)(uintptr_t)arg, round = 0;
	int fd = open(file, O_RDONLY);
	if (fd < 0) { perror(file); exit(2); }
	while (now_ns() < deadline) {
		off_t at = ((off_t)(round * 7 + id * 13) % 64) * CHUNK;
		if (pread(fd, buf, CHUNK, at) != CHUNK) { perror("pread"); exit(2); }
		uint64_t h = id;
		for (int k = 0; k < 300; k++)     /* some computing, for the tick to cut */
			for (int i = 0; i < CHUNK; i++) h = (h ^ buf[i] ^ k) * 0x100000001b3ull;
		struct rec r = { id, round++, h };
		if (write(pipefd[1], &r, sizeof r) != sizeof r) { perror("write"); exit(2); }
		nanosleep(&pause, 0);   /* the trace grows by the clock, not by the CPU's speed */
	}
	close(fd);
	return 0;
}

static void *folder(void *arg)
{
	struct rec r;
	unsigned n = 0;
	(void)arg;
	while (read(pipefd[0], &r, sizeof r) == sizeof r) {
		pthread_mutex_lock(&lock);
		fold(r.worker);
		fold(r.round);
		fold(r.h);
		pthread_mutex_unlock(&lock);
		if (++n % 50 == 0) printf("record %u: worker %u round %u state %016llx\n", n, r.worker, r.round,
		                          (unsigned long long)state);
	}
	printf("%u records, %d alarms\n", n, alarms > 0);
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t w[WORKERS], f;
	struct itimerval it = { { 0, 20000 }, { 0, 20000 } };
	if (argc < 3) {
		fprintf(stderr, "usage: ring SECONDS FILE [crash]\n");
		return 2;
	}
	setvbuf(stdout, 0, _IOLBF, 0);
	file = argv[2];
	deadline = now_ns() + strtoull(argv[1], 0, 10) * 1000000000ull;
	signal(SIGALRM, on_alarm);
	setitimer(ITIMER_REAL, &it, 0);
	if (pipe(pipefd)) return 2;
	pthread_create(&f, 0, folder, 0);
	for (int i = 0; i < WORKERS; i++) pthread_create(&w[i], 0, worker, (void *)(uintptr_t)i);
	for (int i = 0; i < WORKERS; i++) pthread_join(w[i], 0);
	close(pipefd[1]);
	pthread_join(f, 0);
	printf("final state %016llx\n", (unsigned long long)state);
	if (argc > 3 && !strcmp(argv[3], "crash")) *(volatile int *)0 = 1;
	return 0;
}
