/* ThreadSanitizer's annotations: a statistics counter declared a benign
 * race, a hand-off through a relaxed flag ordered by
 * AnnotateHappensBefore/After, a spin lock of the program's own told to
 * the detector with __tsan_mutex_*, and a __tsan_volatile_read4 hook of
 * the program's own: no report.  Built with -DNO_ANNOTATIONS the same
 * program has three races (tests/race/race.sh) */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sched.h>

#ifndef NO_ANNOTATIONS
void AnnotateBenignRaceSized(const char *, int, const volatile void *, unsigned long, const char *);
void AnnotateHappensBefore(const char *, int, const volatile void *);
void AnnotateHappensAfter(const char *, int, const volatile void *);
void __tsan_mutex_create(void *, unsigned);
void __tsan_mutex_pre_lock(void *, unsigned);
void __tsan_mutex_post_lock(void *, unsigned, int);
int __tsan_mutex_pre_unlock(void *, unsigned);
void __tsan_mutex_post_unlock(void *, unsigned);
#define BENIGN(p) AnnotateBenignRaceSized(__FILE__, __LINE__, p, sizeof *(p), "statistics")
#define BEFORE(p) AnnotateHappensBefore(__FILE__, __LINE__, p)
#define AFTER(p) AnnotateHappensAfter(__FILE__, __LINE__, p)
#define M(call) call
#else
#define BENIGN(p)
#define BEFORE(p)
#define AFTER(p)
#define M(call)
#endif

static long hits;
static long payload;
static atomic_int ready;
static atomic_int spin;
static long guarded;
volatile int vol;
static int vol_reads;

/* the program's own hook: no clash with the detector's */
__attribute__((no_sanitize_thread)) void __tsan_volatile_read4(void *addr)
{
	vol_reads++;
}

static void spin_lock(void)
{
	M(__tsan_mutex_pre_lock(&spin, 0));
	while (atomic_exchange_explicit(&spin, 1, memory_order_relaxed)) sched_yield();
	M(__tsan_mutex_post_lock(&spin, 0, 0));
}

static void spin_unlock(void)
{
	M(__tsan_mutex_pre_unlock(&spin, 0));
	atomic_store_explicit(&spin, 0, memory_order_relaxed);
	M(__tsan_mutex_post_unlock(&spin, 0));
}

static void *worker(void *arg)
{
	hits++;
	payload = 7;
	BEFORE(&ready);
	atomic_store_explicit(&ready, 1, memory_order_relaxed);
	spin_lock();
	guarded++;
	spin_unlock();
	return 0;
}

int main(void)
{
	pthread_t t;
	int v;
	BENIGN(&hits);
	M(__tsan_mutex_create(&spin, 0));
	pthread_create(&t, 0, worker, 0);
	hits++;
	while (!atomic_load_explicit(&ready, memory_order_relaxed)) sched_yield();
	AFTER(&ready);
	spin_lock();
	guarded++;
	spin_unlock();
	v = vol;
	printf("%ld %ld %ld %d %d\n", hits, payload, guarded, v, vol_reads);
	pthread_join(t, 0);
	return 0;
}
