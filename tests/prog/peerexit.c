/*
 * peerexit.c — a write wakes its peer's reader and is preempted while
 * it does; the reader runs to its end meanwhile.  Nothing the writer
 * does after that may touch the reader's node, which lives in the
 * reader's descriptor, freed when the detached reader exits (unmapped
 * at once on copied stacks, kept inaccessible under GREEN_DEBUG=1).
 *
 * The main thread computes past its quantum, so the next tick preempts
 * it, then writes one byte to a pipe whose read end the reader waits on
 * (src/sysio/peer.c: the write wakes the reader itself).  When a tick
 * lands between the write and the wake, its multiplexer round finds
 * the pipe readable and the reader runs, reads and exits before the
 * writer goes on.  Where the tick lands is chance: under qemu-user, in
 * about 3 runs in 100 it lands there (the code after the write runs
 * for the first time, and is translated then); natively almost never.
 * So tests/prog/programs.sh runs it many times, each a fresh process.
 * Exit status 0 when the reader got its byte.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

static int p[2];
static volatile int waiting, done;

static void *reader(void *arg)
{
	char c;

	waiting = 1;
	if (read(p[0], &c, 1) != 1 || c != 'x') abort();
	done = 1;
	return 0;
}

/* about 3 ms natively, 20 ms under qemu: past a 1 ms quantum */
static void compute(long n)
{
	volatile unsigned long x = 0;

	for (long i = 0; i < n; i++) x += i ^ (x >> 3);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	pthread_attr_t a;
	pthread_t t;

	if (pipe(p)) return 1;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &a, reader, 0)) return 1;
	while (!waiting) sched_yield();
	sched_yield();   /* the reader is in its read, or has parked there */
	compute(n);
	if (write(p[1], "x", 1) != 1) return 1;
	while (!done) sched_yield();
	return 0;
}
