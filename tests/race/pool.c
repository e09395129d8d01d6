/* race-free: a thread pool: a task queue under a mutex and condition
 * variable, each task writing its own heap-allocated result, which the
 * submitter reads after waiting for a completion count; the workers stop
 * on a flag and are joined (tests/race/race.sh) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define WORKERS 4
#define TASKS 64

struct task { struct task *next; int n; long *result; };
static struct task *todo;
static int finished, stopping;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER, done_cv = PTHREAD_COND_INITIALIZER;

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static void *pool_worker(void *arg)
{
	for (;;) {
		struct task *t;
		pthread_mutex_lock(&m);
		while (!todo && !stopping) pthread_cond_wait(&work, &m);
		if (!todo) {
			pthread_mutex_unlock(&m);
			return 0;
		}
		t = todo;
		todo = t->next;
		pthread_mutex_unlock(&m);
		*t->result = fib(t->n);
		free(t);
		pthread_mutex_lock(&m);
		finished++;
		pthread_cond_signal(&done_cv);
		pthread_mutex_unlock(&m);
	}
}

int main(void)
{
	pthread_t w[WORKERS];
	long *results = calloc(TASKS, sizeof *results), total = 0;
	for (int i = 0; i < WORKERS; i++) pthread_create(&w[i], 0, pool_worker, 0);
	for (int i = 0; i < TASKS; i++) {
		struct task *t = malloc(sizeof *t);
		t->n = i % 16;
		t->result = &results[i];
		pthread_mutex_lock(&m);
		t->next = todo;
		todo = t;
		pthread_cond_signal(&work);
		pthread_mutex_unlock(&m);
	}
	pthread_mutex_lock(&m);
	while (finished < TASKS) pthread_cond_wait(&done_cv, &m);
	stopping = 1;
	pthread_cond_broadcast(&work);
	pthread_mutex_unlock(&m);
	for (int i = 0; i < TASKS; i++) total += results[i];
	for (int i = 0; i < WORKERS; i++) pthread_join(w[i], 0);
	free(results);
	printf("total %ld\n", total);
	return total == 4 * 1596 ? 0 : 1;   /* four rounds of fib(0..15) */
}
