/*
 * wakeorder.c — does a thread woken by a write run before the write
 * returns?  Two shapes over a socket pair, one byte at a time:
 *
 *   echo      main writes a request and reads the reply; a server
 *             thread reads each request and writes the reply back
 *   producer  main only writes; a consumer thread only reads (main's
 *             end is never read)
 *
 * At each write, the writer looks whether the other thread has counted
 * a read since just before the write: if so, it ran before the write
 * returned.  Prints, per shape, the writes made (the echo's by both
 * threads) and how many of them the woken thread ran first in:
 *
 *   V wakeorder_echo_first N of M
 *   V wakeorder_producer_first N of M
 *
 * On Linux the kernel decides (its wake-up preemption); under green the
 * hand-off of docs/io.md does: in the echo, one of the two writes of a
 * round trip (whichever finds the other thread parked in its read; each
 * follows a read of the same end), never the producer's but a write
 * that waited for room.  Run on one CPU, so that both shapes share it
 * as green's threads do:
 *
 *   cc -O2 -pthread -o wakeorder-glibc bench/wakeorder.c && taskset -c 0 ./wakeorder-glibc
 *   build/bin/green-cc -O2 -o wakeorder-green bench/wakeorder.c && ./wakeorder-green
 *
 *   wakeorder [ROUNDS]   (default 20000)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static int sv[2];
static volatile long reads[2];   /* reads that found a byte: main's, the peer thread's */
static volatile long first;      /* writes the other thread ran first in */
static long rounds;

/* write a byte on end e (0: main's), counting whether the thread that
 * reads the other end ran before the write returned */
static void put(int e)
{
	long before = reads[!e];
	char c = 'x';

	if (write(sv[e], &c, 1) != 1) exit(2);
	if (reads[!e] != before) first++;
}

static void get(int e)
{
	char c;

	if (read(sv[e], &c, 1) != 1) exit(2);
	reads[e]++;
}

static void *server(void *arg)
{
	(void)arg;
	for (long i = 0; i < rounds; i++) {
		get(1);
		put(1);
	}
	return 0;
}

static void *consumer(void *arg)
{
	(void)arg;
	for (long i = 0; i < rounds; i++) get(1);
	return 0;
}

/* one shape: the writes the other thread ran first in */
static long shape(void *(*peer)(void *), int echo)
{
	pthread_t t;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) exit(2);
	reads[0] = reads[1] = first = 0;
	if (pthread_create(&t, 0, peer, 0) != 0) exit(2);
	for (long i = 0; i < rounds; i++) {
		put(0);
		if (echo) get(0);
	}
	pthread_join(t, 0);
	close(sv[0]);
	close(sv[1]);
	return first;
}

int main(int argc, char **argv)
{
	rounds = argc > 1 ? atol(argv[1]) : 20000;
	if (rounds <= 0) return 2;
	printf("V wakeorder_echo_first %ld of %ld\n", shape(server, 1), 2 * rounds);
	printf("V wakeorder_producer_first %ld of %ld\n", shape(consumer, 0), rounds);
	return 0;
}
