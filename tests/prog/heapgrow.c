/*
 * heapgrow.c — the timer heap grows while ticks come (programs.sh).
 *
 * The heap of deadlines (src/core/sched/timer.c) grows by mapping a larger
 * array, copying, and unmapping the old one; the tick handler reads the
 * heap's first deadline at any instruction, inside a no-preempt section
 * too.  It once read the old array after it was unmapped and before the
 * new one was published: a SIGSEGV at a page-aligned address, which a
 * thread-pool server met at start-up, once in tens of runs.  Here each
 * of ROUNDS child processes starts THREADS threads that each sleep with
 * a deadline, so its heap grows from nothing several times, under ticks
 * as dense as GREEN_QUANTUM_MS allows; every child must exit 0.
 *
 *   heapgrow [ROUNDS [THREADS]]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void *sleeper(void *arg)
{
	struct timespec ts = { 0, 20000000 };
	for (volatile int i = 0; i < 2000; i++)
		;
	nanosleep(&ts, 0);
	return arg;
}

static int child(int n)
{
	pthread_t *t = calloc(n, sizeof *t);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], 0, sleeper, 0)) return 2;
	for (int i = 0; i < n; i++) pthread_join(t[i], 0);
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 100, n = argc > 2 ? atoi(argv[2]) : 600;
	int bad = 0, st;

	for (int r = 0; r < rounds; r++) {
		pid_t p = fork();
		if (p < 0) return 2;
		if (p == 0) _exit(child(n));
		if (waitpid(p, &st, 0) != p) return 2;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "round %d: child %s %d\n", r,
			        WIFSIGNALED(st) ? "killed by signal" : "exited", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
			bad++;
		}
	}
	printf("%d rounds, %d failed\n", rounds, bad);
	return bad != 0;
}
