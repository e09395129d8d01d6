/*
 * preempt.c — time slicing and SIGALRM, run by tests/prog/preempt.sh with the
 * quantum it chooses (GREEN_QUANTUM_MS is read once, at start-up).
 *
 *   preempt spin        two threads compute without ever yielding while
 *                       the main thread sleeps 200 ms: both progress,
 *                       each while the other is alive; prints the
 *                       sleeper's lateness
 *   preempt hammer MS   16 threads call malloc/free/realloc/snprintf/
 *                       strtod/strtol for MS milliseconds, checking every
 *                       block's contents and every round trip; then
 *                       malloc/free of many sizes (GREEN_VALGRIND set:
 *                       doubles valgrind's arithmetic converts exactly)
 *   preempt locks MS    8 threads take and release short critical
 *                       sections of libc's internal lock (random), a
 *                       shared FILE's lock and a spin lock for MS
 *                       milliseconds, so ticks often land inside a lock
 *                       or unlock: every thread must keep taking each
 *                       lock (a lost wake-up parks the others for good)
 *   preempt alarm       alarm(1) with a SIGALRM handler while two
 *                       spinners run: the handler runs once; prints
 *                       "late MS" (from 1 s), fails beyond 50 ms
 *   preempt periodic    a 250 ms periodic ITIMER_REAL while two spinners
 *                       run, counted over 1 s: prints the count, fails
 *                       outside 4 +- 1
 *
 * Exit status 0 when the checks hold, 1 otherwise (with a message).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/time.h>
#include "spinners.h"

#define MS 1000000ull

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static int failed(const char *what)
{
	fprintf(stderr, "preempt: %s\n", what);
	return 1;
}

static int spinners_checked(void)
{
	printf("spinners saw each other advance %lu and %lu times\n",
	       spinners[0].changes, spinners[1].changes);
	if (spinners[0].changes < 2 || spinners[1].changes < 2)
		return failed("a spinner did not see the other advance twice");
	return 0;
}

/* ---- spin */

static int spin_test(void)
{
	struct timespec req = { 0, 200 * MS };
	uint64_t t0, slept, start;

	if (spinners_start()) return failed("pthread_create");
	t0 = start = now_ns();
	if (nanosleep(&req, 0)) return failed("nanosleep");
	slept = now_ns() - t0;
	/* a loaded machine gives this process little CPU: sleep on until
	 * each spinner has seen the other advance twice (or 20 s passed) */
	while ((__atomic_load_n(&spinners[0].changes, __ATOMIC_RELAXED) < 2 ||
	        __atomic_load_n(&spinners[1].changes, __ATOMIC_RELAXED) < 2) &&
	       now_ns() - start < 20000 * MS)
		if (nanosleep(&req, 0)) return failed("nanosleep");
	spinners_stop();
	printf("sleeper: 200 ms sleep woke %.2f ms late\n", ((double)slept - 200 * MS) / 1e6);
	if (slept < 200 * MS) return failed("the sleeper woke early");
	return spinners_checked();
}

/* ---- hammer */

#define NHAMMER 16
#define NSLOT 32

static uint64_t hammer_end;
static int hammer_bad;
static pthread_barrier_t hammer_start;
static int exact_fp;            /* any double round-trips (not under valgrind) */
static unsigned long hammer_ops[NHAMMER];

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

struct slot {
	unsigned char *p;
	size_t size;
	unsigned char tag;
};

static int slot_intact(const struct slot *s)
{
	for (size_t i = 0; i < s->size; i += 1 + s->size / 64)
		if (s->p[i] != s->tag) return 0;
	return s->p[s->size - 1] == s->tag;
}

static void bad(int id, const char *what)
{
	__atomic_store_n(&hammer_bad, 1, __ATOMIC_SEQ_CST);
	fprintf(stderr, "preempt: hammer thread %d: %s\n", id, what);
}

static void *hammer(void *arg)
{
	int id = (intptr_t)arg;
	uint64_t rng = 0x9e3779b97f4a7c15ull * (id + 1);
	struct slot slots[NSLOT] = { { 0 } };
	unsigned long ops = 0;
	char buf[64], *end;

	pthread_barrier_wait(&hammer_start);
	while (!hammer_bad) {
		uint64_t r = xorshift(&rng);
		struct slot *s = &slots[r % NSLOT];
		double d, back;
		long l;

		if (ops && (ops & 63) == 0 && now_ns() >= hammer_end) break;
		ops++;
		/* a block: check the old one's contents, free or resize it */
		if (s->p && !slot_intact(s)) {
			bad(id, "a block's contents changed");
			break;
		}
		if (s->p && (r >> 8 & 7) == 0) {
			size_t n = 1 + (r >> 16) % 4096;
			unsigned char *q = realloc(s->p, n);
			if (!q) { bad(id, "realloc failed"); break; }
			for (size_t i = 0; i < (n < s->size ? n : s->size); i += 1 + n / 64)
				if (q[i] != s->tag) { bad(id, "realloc lost contents"); break; }
			s->p = q;
			s->size = n;
		} else {
			free(s->p);
			s->size = 1 + ((r >> 8 & 63) == 0 ? (r >> 16) % (256 * 1024)
			                                    : (r >> 16) % ((r >> 12 & 1) ? 64 : 8192));
			if (!(s->p = malloc(s->size))) { bad(id, "malloc failed"); break; }
		}
		s->tag = (unsigned char)(id * NSLOT + (s - slots) + ops);
		memset(s->p, s->tag, s->size);

		/* a double and a long through text and back */
		if (exact_fp) {
			do {
				uint64_t bits = xorshift(&rng);
				memcpy(&d, &bits, sizeof d);
			} while (d != d || d - d != 0);
		} else {
			/* valgrind computes long double at double precision,
			 * which musl's conversions need for arbitrary doubles */
			d = (double)(int64_t)(xorshift(&rng) >> 24) / 8 * (r & 1 ? 1 : -1);
		}
		snprintf(buf, sizeof buf, "%.17g", d);
		back = strtod(buf, &end);
		if (*end || memcmp(&back, &d, sizeof d)) { bad(id, "strtod(snprintf(%.17g)) differs"); break; }
		l = (long)xorshift(&rng);
		snprintf(buf, sizeof buf, "%ld|%d", l, id);
		if (strtol(buf, &end, 10) != l || *end != '|' || strtol(end + 1, &end, 10) != id || *end) {
			bad(id, "strtol(snprintf(%ld)) differs");
			break;
		}
	}
	for (int i = 0; i < NSLOT; i++) free(slots[i].p);
	hammer_ops[id] = ops;
	return 0;
}

static int hammer_test(long ms)
{
	pthread_t t[NHAMMER];
	unsigned long total = 0;

	exact_fp = !getenv("GREEN_VALGRIND");
	pthread_barrier_init(&hammer_start, 0, NHAMMER + 1);
	for (intptr_t i = 0; i < NHAMMER; i++)
		if (pthread_create(&t[i], 0, hammer, (void *)i)) return failed("pthread_create");
	hammer_end = now_ns() + ms * MS;
	pthread_barrier_wait(&hammer_start);
	for (int i = 0; i < NHAMMER; i++) {
		pthread_join(t[i], 0);
		total += hammer_ops[i];
	}
	if (hammer_bad) return 1;
	/* the heap is still whole: many sizes, small to mmap'd */
	for (size_t n = 1; n < 8 << 20; n = n * 3 / 2 + 1) {
		unsigned char *p = malloc(n), *z = calloc(1, n);
		if (!p || !z) return failed("final malloc failed");
		memset(p, 0xa5, n);
		if (z[0] || z[n / 2] || z[n - 1]) return failed("calloc memory not zero");
		free(z);
		free(p);
	}
	printf("hammer: %d threads, %lu rounds in %ld ms, heap consistent\n", NHAMMER, total, ms);
	return 0;
}

/* ---- locks */

#define NLOCKER 8

static uint64_t locks_end;
static pthread_spinlock_t locks_spin;
static FILE *locks_file;
static unsigned long locks_spun;          /* guarded by locks_spin */
static unsigned long locker_rounds[NLOCKER];

static void *locker(void *arg)
{
	int id = (intptr_t)arg;
	unsigned long n = 0;

	do {
		for (int i = 0; i < 64; i++) {
			random();
			flockfile(locks_file);
			putc_unlocked('.', locks_file);
			funlockfile(locks_file);
			pthread_spin_lock(&locks_spin);
			locks_spun++;
			pthread_spin_unlock(&locks_spin);
		}
		n += 64;
	} while (now_ns() < locks_end);
	locker_rounds[id] = n;
	return 0;
}

static int locks_test(long ms)
{
	pthread_t t[NLOCKER];
	unsigned long total = 0, least = -1;

	if (!(locks_file = fopen("/dev/null", "w"))) return failed("fopen /dev/null");
	pthread_spin_init(&locks_spin, 0);
	locks_end = now_ns() + ms * MS;
	for (intptr_t i = 0; i < NLOCKER; i++)
		if (pthread_create(&t[i], 0, locker, (void *)i)) return failed("pthread_create");
	for (int i = 0; i < NLOCKER; i++) {
		pthread_join(t[i], 0);
		total += locker_rounds[i];
		if (locker_rounds[i] < least) least = locker_rounds[i];
	}
	fclose(locks_file);
	printf("locks: %d threads, %lu rounds in %ld ms (fewest %lu)\n", NLOCKER, total, ms, least);
	if (total != locks_spun) return failed("the spin lock lost an increment");
	return 0;
}

/* ---- alarm and periodic */

static sem_t alarmed;
static int nalarm;
static uint64_t alarm_times[64];

static void on_alarm(int s)
{
	int i = __atomic_fetch_add(&nalarm, 1, __ATOMIC_SEQ_CST);
	if (i < 64) alarm_times[i] = now_ns();
	sem_post(&alarmed);
}

static void catch_alarm(void)
{
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, 0);
	sem_init(&alarmed, 0, 0);
}

/* Sleep until t0 + ns, whatever handlers interrupt. */
static void sleep_until(uint64_t t0, uint64_t ns)
{
	uint64_t now;
	while ((now = now_ns()) < t0 + ns) {
		struct timespec ts = { (t0 + ns - now) / 1000000000u, (t0 + ns - now) % 1000000000u };
		nanosleep(&ts, 0);
	}
}

static int alarm_test(void)
{
	uint64_t t0;
	double late;

	catch_alarm();
	if (spinners_start()) return failed("pthread_create");
	t0 = now_ns();
	alarm(1);
	while (sem_wait(&alarmed)) ;
	late = ((double)alarm_times[0] - t0 - 1000 * MS) / 1e6;
	/* a second run would come by now if there were one */
	sleep_until(alarm_times[0], 500 * MS);
	spinners_stop();
	printf("alarm: handler ran %d time(s), %.2f ms late\n", nalarm, late);
	if (nalarm != 1) return failed("alarm(1): the handler did not run exactly once");
	if (late < 0) return failed("alarm(1) fired early");
	if (late > 50) return failed("alarm(1) fired more than 50 ms late");
	return spinners_checked();
}

static int periodic_test(void)
{
	struct itimerval every = { { 0, 250000 }, { 0, 250000 } }, off = { { 0, 0 }, { 0, 0 } };
	uint64_t t0;
	int n;

	catch_alarm();
	if (spinners_start()) return failed("pthread_create");
	t0 = now_ns();
	setitimer(ITIMER_REAL, &every, 0);
	sleep_until(t0, 1000 * MS);
	n = __atomic_load_n(&nalarm, __ATOMIC_SEQ_CST);
	setitimer(ITIMER_REAL, &off, 0);
	spinners_stop();
	printf("periodic: %d expiries in 1 s, at", n);
	for (int i = 0; i < n && i < 64; i++) printf(" %.1f", ((double)alarm_times[i] - t0) / 1e6);
	printf(" ms\n");
	if (n < 3 || n > 5) return failed("a 250 ms timer did not fire 4 +- 1 times in 1 s");
	return spinners_checked();
}

int main(int argc, char **argv)
{
	setvbuf(stdout, 0, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "spin")) return spin_test();
	if (argc == 3 && !strcmp(argv[1], "hammer")) return hammer_test(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "locks")) return locks_test(atol(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "alarm")) return alarm_test();
	if (argc == 2 && !strcmp(argv[1], "periodic")) return periodic_test();
	fprintf(stderr, "usage: preempt spin | hammer MS | locks MS | alarm | periodic\n");
	return 2;
}
