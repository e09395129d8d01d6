/*
 * wakeup.c — how long a thread woken by its descriptor, a signal or a
 * timer waits for the CPU while other threads compute.
 *
 *   wakeup pipe|signal|timer SPINNERS ROUNDS
 *
 * SPINNERS threads compute without a system call the whole time.  A
 * waiter blocks; main makes it runnable and takes the time; the waiter
 * takes the time as its wait returns.  pipe: main writes a byte to a
 * pipe the waiter reads.  signal: main sends a signal (pthread_kill) to
 * the waiter, blocked in sigwait.  timer: the waiter sleeps until 2 ms
 * from its own clock (clock_nanosleep, an absolute time), and the wait
 * is counted from that time.  Between rounds main sleeps a few
 * milliseconds (the spinners keep the CPU meanwhile).  Prints, in microseconds, the mean,
 * the median, the 90th percentile and the largest wait, and the
 * spinners' share of progress (the least and the most any of them
 * advanced, as counts of its loop) to show that none starved:
 *
 *   V wakeup_mean US, V wakeup_p50 US, V wakeup_p90 US, V wakeup_max US
 *   V spin_min N, V spin_max N
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { PIPE, SIGNAL, TIMER };
static int mode, nspin, rounds, fds[2];
static volatile int stop;
static volatile unsigned long *progress;
static volatile double woke_at;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static pthread_cond_t gc = PTHREAD_COND_INITIALIZER;
static int turn;                 /* rounds the waiter is done with */
static int go;                   /* TIMER: rounds main let start */
static struct timespec target;   /* TIMER: when to wake */
static volatile double due;      /* the same, in seconds */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *spinner(void *arg)
{
	volatile unsigned long *p = &progress[(long)arg];
	while (!stop) (*p)++;
	return 0;
}

static void *waiter(void *arg)
{
	sigset_t set;
	char b;
	int s;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	for (int i = 0; i < rounds; i++) {
		switch (mode) {
		case PIPE:
			if (read(fds[0], &b, 1) != 1) exit(2);
			break;
		case SIGNAL:
			if (sigwait(&set, &s)) exit(2);
			break;
		case TIMER:
			pthread_mutex_lock(&m);   /* main's go for this round */
			while (go != i + 1) pthread_cond_wait(&gc, &m);
			pthread_mutex_unlock(&m);
			clock_gettime(CLOCK_MONOTONIC, &target);
			target.tv_nsec += 2000000;
			if (target.tv_nsec >= 1000000000) target.tv_sec++, target.tv_nsec -= 1000000000;
			due = target.tv_sec + target.tv_nsec / 1e9;
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, 0)) ;
			break;
		}
		woke_at = now();
		pthread_mutex_lock(&m);
		turn = i + 1;
		pthread_cond_signal(&c);
		pthread_mutex_unlock(&m);
	}
	return 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	pthread_t w, *sp;
	double *lat, sum = 0;
	sigset_t set;
	unsigned long lo = -1, hi = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: wakeup pipe|signal|timer SPINNERS ROUNDS\n");
		return 2;
	}
	mode = !strcmp(argv[1], "signal") ? SIGNAL : !strcmp(argv[1], "timer") ? TIMER : PIPE;
	nspin = atoi(argv[2]);
	rounds = atoi(argv[3]);
	lat = calloc(rounds, sizeof *lat);
	sp = calloc(nspin + 1, sizeof *sp);
	progress = calloc(nspin + 1, sizeof *progress);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, 0);   /* every thread: the waiter takes it by sigwait */
	if (pipe(fds)) return 2;
	pthread_create(&w, 0, waiter, 0);
	for (long i = 0; i < nspin; i++) pthread_create(&sp[i], 0, spinner, (void *)i);
	usleep(20000);
	for (int i = 0; i < rounds; i++) {
		double t0;
		usleep(3000);   /* the waiter is blocked by now, the spinners spin */
		if (mode == TIMER) {
			t0 = 0;   /* the waiter's own deadline (due) */
			pthread_mutex_lock(&m);
			go = i + 1;
			pthread_cond_signal(&gc);
			pthread_mutex_unlock(&m);
		} else {
			t0 = now();
			if (mode == PIPE) {
				if (write(fds[1], "x", 1) != 1) return 2;
			} else {
				pthread_kill(w, SIGUSR1);
			}
		}
		pthread_mutex_lock(&m);
		while (turn != i + 1) pthread_cond_wait(&c, &m);
		pthread_mutex_unlock(&m);
		lat[i] = (woke_at - (mode == TIMER ? due : t0)) * 1e6;
		if (lat[i] < 0) lat[i] = 0;
		sum += lat[i];
	}
	stop = 1;
	pthread_join(w, 0);
	for (int i = 0; i < nspin; i++) {
		pthread_join(sp[i], 0);
		if (progress[i] < lo) lo = progress[i];
		if (progress[i] > hi) hi = progress[i];
	}
	qsort(lat, rounds, sizeof *lat, cmp);
	printf("V wakeup_mean %.1f\nV wakeup_p50 %.1f\nV wakeup_p90 %.1f\nV wakeup_max %.1f\n",
	       sum / rounds, lat[rounds / 2], lat[rounds * 9 / 10], lat[rounds - 1]);
	if (nspin) printf("V spin_min %lu\nV spin_max %lu\n", lo, hi);
	return 0;
}
