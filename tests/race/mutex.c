/* race-free: shared state behind a mutex (normal, recursive, error
 * checking; lock, trylock, timedlock), an rwlock (readers and writers)
 * and a spin lock, with yields inside the critical sections so that the
 * threads interleave (tests/race/race.sh) */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

#define THREADS 4
#define ROUNDS 200

static pthread_mutex_t plain = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t recursive;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t spin;
static long a, b, table[16], spun;

static void *worker(void *arg)
{
	long id = (long)arg, seen = 0;
	for (int i = 0; i < ROUNDS; i++) {
		struct timespec ts;
		switch (i % 3) {
		case 0: pthread_mutex_lock(&plain); break;
		case 1: while (pthread_mutex_trylock(&plain) == EBUSY) sched_yield(); break;
		case 2:
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += 10;
			pthread_mutex_timedlock(&plain, &ts);
			break;
		}
		a++;
		sched_yield();
		a++;
		pthread_mutex_unlock(&plain);

		pthread_mutex_lock(&recursive);
		pthread_mutex_lock(&recursive);
		b += id;
		pthread_mutex_unlock(&recursive);
		sched_yield();
		b -= id;
		pthread_mutex_unlock(&recursive);

		if (i % 4 == 0) {
			pthread_rwlock_wrlock(&rw);
			table[i % 16] = id;
			sched_yield();
			pthread_rwlock_unlock(&rw);
		} else {
			pthread_rwlock_rdlock(&rw);
			seen += table[i % 16];
			sched_yield();
			seen += table[(i + 1) % 16];
			pthread_rwlock_unlock(&rw);
		}

		pthread_spin_lock(&spin);
		spun++;
		pthread_spin_unlock(&spin);
	}
	return (void *)seen;
}

int main(void)
{
	pthread_t t[THREADS];
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&recursive, &ma);
	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	for (long i = 0; i < THREADS; i++) pthread_create(&t[i], 0, worker, (void *)i);
	for (int i = 0; i < THREADS; i++) pthread_join(t[i], 0);
	printf("a %ld b %ld spun %ld\n", a, b, spun);
	return a == 2 * THREADS * ROUNDS && b == 0 && spun == THREADS * ROUNDS ? 0 : 1;
}
