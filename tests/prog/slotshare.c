/*
 * slotshare.c — with copied stacks, more copied threads than a 32-bit
 * process gives a stack slot each (docs/stacks.md): 600 park, then one
 * more puts a variable on its stack, hands its address to main and
 * parks, and main writes through it.
 *
 * Prints "bits N" first (the pointer width).  On a 64-bit CPU every
 * thread has a slot of its own: the write lands, the owner finds it,
 * "ok", exit 0.  On a 32-bit CPU the owner's slot is shared, so green
 * names main, the address and the threads sharing the slot, and the
 * process dies of SIGSEGV: never a write into another thread's frames.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define PARKERS 600

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int parked, go, written;
static volatile int *shared;

static void *parker(void *arg)
{
	volatile char frame[300];
	frame[0] = 1;
	pthread_mutex_lock(&m);
	parked++;
	pthread_cond_broadcast(&c);
	while (!go) pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	return (void *)(intptr_t)frame[0];
}

static void *owner(void *arg)
{
	volatile int x = 42;
	pthread_mutex_lock(&m);
	shared = &x;
	pthread_cond_broadcast(&c);
	while (!written) pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	return (void *)(intptr_t)(x == 43);
}

int main(void)
{
	pthread_t p[PARKERS], o;
	void *r;
	int bad = 0;

	printf("bits %d\n", (int)(8 * sizeof(void *)));
	fflush(stdout);
	for (int i = 0; i < PARKERS; i++)
		if (pthread_create(&p[i], 0, parker, 0)) return 2;
	pthread_mutex_lock(&m);
	while (parked < PARKERS) pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	if (pthread_create(&o, 0, owner, 0)) return 2;
	pthread_mutex_lock(&m);
	while (!shared) pthread_cond_wait(&c, &m);
	*shared = *shared + 1;   /* the owner is parked: its stack is not running */
	written = 1;
	go = 1;
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	pthread_join(o, &r);
	bad += r != (void *)1;
	for (int i = 0; i < PARKERS; i++) {
		pthread_join(p[i], &r);
		bad += r != (void *)1;
	}
	puts(bad ? "wrong" : "ok");
	return bad != 0;
}
