/* race-free: a ping-pong over two semaphores, each side writing the
 * shared message only when its semaphore says it may (tests/race/race.sh) */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>

#define ROUNDS 500
static sem_t to_pong, to_ping;
static char message[32];
static int volley;

static void *pong(void *arg)
{
	for (int i = 0; i < ROUNDS; i++) {
		if (i % 2) while (sem_trywait(&to_pong)) sched_yield();
		else sem_wait(&to_pong);
		if (message[0] != 'p') return (void *)1;
		message[1] = 'o';
		volley++;
		sem_post(&to_ping);
	}
	return 0;
}

int main(void)
{
	pthread_t t;
	void *r;
	sem_init(&to_pong, 0, 0);
	sem_init(&to_ping, 0, 0);
	pthread_create(&t, 0, pong, 0);
	for (int i = 0; i < ROUNDS; i++) {
		strcpy(message, "pi");
		message[0] = 'p';
		volley++;
		sem_post(&to_pong);
		sem_wait(&to_ping);
		if (message[1] != 'o') return 1;
	}
	pthread_join(t, &r);
	printf("volleys %d\n", volley);
	return r || volley != 2 * ROUNDS;
}
