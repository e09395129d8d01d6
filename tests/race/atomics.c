/* race-free: data published with release/acquire atomics (C11 and gcc's
 * builtins), a release/acquire pair of fences around relaxed accesses, an
 * atomic counter, pthread_once and C11's call_once, threads and mutex
 * (tests/race/race.sh) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <threads.h>

static int data1, data2, data3, inited, c11_inited, c11_shared;
static atomic_int flag1, flag3;
static int flag2;
static atomic_long hits;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static once_flag c11_once = ONCE_FLAG_INIT;
static mtx_t c11_lock;

static void init(void) { inited = 1; }
static void c11_init(void) { c11_inited = 1; }

static void *writer(void *arg)
{
	data1 = 1;
	atomic_store_explicit(&flag1, 1, memory_order_release);
	data2 = 2;
	__atomic_store_n(&flag2, 1, __ATOMIC_RELEASE);
	data3 = 3;
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&flag3, 1, memory_order_relaxed);
	for (int i = 0; i < 100; i++) atomic_fetch_add(&hits, 1);
	pthread_once(&once, init);
	return 0;
}

static int c11_worker(void *arg)
{
	call_once(&c11_once, c11_init);
	for (int i = 0; i < 50; i++) {
		mtx_lock(&c11_lock);
		c11_shared++;
		mtx_unlock(&c11_lock);
		thrd_yield();
	}
	return c11_inited ? 0 : 1;
}

int main(void)
{
	pthread_t t;
	thrd_t c[2];
	int r0, r1;
	pthread_create(&t, 0, writer, 0);
	while (!atomic_load_explicit(&flag1, memory_order_acquire)) sched_yield();
	while (!__atomic_load_n(&flag2, __ATOMIC_ACQUIRE)) sched_yield();
	while (!atomic_load_explicit(&flag3, memory_order_relaxed)) sched_yield();
	atomic_thread_fence(memory_order_acquire);
	for (int i = 0; i < 100; i++) atomic_fetch_add(&hits, 1);
	pthread_once(&once, init);
	int sum = data1 + data2 + data3 + inited;
	pthread_join(t, 0);
	mtx_init(&c11_lock, mtx_plain);
	thrd_create(&c[0], c11_worker, 0);
	thrd_create(&c[1], c11_worker, 0);
	thrd_join(c[0], &r0);
	thrd_join(c[1], &r1);
	printf("sum %d hits %ld shared %d\n", sum, atomic_load(&hits), c11_shared);
	return sum == 7 && hits == 200 && c11_shared == 100 && !r0 && !r1 ? 0 : 1;
}
