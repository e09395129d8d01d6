/*
 * spin — two threads hand a turn back and forth by spinning on a shared
 * word, with no call in their loops: only a preemption by the tick lets
 * the other run.  Built with `green-cc --sched-points`, where every basic
 * block is a countable point of green-record, the recorded run takes its
 * ticks inside the loops and the replay takes them at the same blocks:
 * the same spin counts, the same hash (tests/record.sh).  Built without,
 * the recorder could preempt only at a call, and the loops never make one.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define TURNS 60

static volatile int turn;
static uint64_t spins[2][TURNS];

static void *player(void *arg)
{
	int me = (int)(intptr_t)arg;
	for (int i = 0; i < TURNS; i++) {
		uint64_t n = 0;
		while (turn != me) n++;
		spins[me][i] = n;
		turn = !me;
	}
	return 0;
}

int main(void)
{
	pthread_t t[2];
	uint64_t h = 0xcbf29ce484222325ull, total = 0;
	for (intptr_t i = 0; i < 2; i++) pthread_create(&t[i], 0, player, (void *)i);
	for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
	for (int p = 0; p < 2; p++)
		for (int i = 0; i < TURNS; i++) {
			h = (h ^ spins[p][i]) * 0x100000001b3ull;
			total += spins[p][i];
		}
	printf("%d turns, %llu spins, hash %016llx\n", 2 * TURNS, (unsigned long long)total,
	       (unsigned long long)h);
	return 0;
}
