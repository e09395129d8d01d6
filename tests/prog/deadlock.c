/*
 * deadlock.c — a lock-order deadlock between two threads.  Green mode
 * must notice that nothing can ever run again, describe both threads on
 * stderr ("green: deadlock ...") and abort.  (In 1:1 mode it hangs.)
 * One mutex has a symbol (ledger), which the report names; the other is
 * on the heap, and the report names it by the frame that locks it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

pthread_mutex_t ledger = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t *vault;
static volatile int holds_vault;

static __attribute__((noinline)) void *take_vault_then_ledger(void *arg)
{
	(void)arg;
	pthread_mutex_lock(vault);
	holds_vault = 1;
	pthread_mutex_lock(&ledger);
	return 0;
}

int main(void)
{
	pthread_t t;

	if (!(vault = malloc(sizeof *vault)) || pthread_mutex_init(vault, 0)) return 1;
	pthread_setname_np(pthread_self(), "lock-main");
	pthread_mutex_lock(&ledger);
	if (pthread_create(&t, 0, take_vault_then_ledger, 0)) return 1;
	pthread_setname_np(t, "lock-worker");
	while (!holds_vault) sched_yield();
	pthread_mutex_lock(vault);
	puts("not reached");
	return 0;
}
