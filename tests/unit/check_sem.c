/* check_sem.c — Check suite: semaphores, unnamed, named and process-shared. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"

/* An initial value above SEM_VALUE_MAX is refused with -1/EINVAL. */
START_TEST(init_too_large)
{
	sem_t s;
	errno = 0;
	ck_assert_int_eq(sem_init(&s, 0, (unsigned)SEM_VALUE_MAX + 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sem_init(&s, 0, SEM_VALUE_MAX), 0);
	ck_assert_int_eq(sem_destroy(&s), 0);
}
END_TEST

/* A post that would exceed SEM_VALUE_MAX fails with EOVERFLOW, for a
 * private and a process-shared semaphore alike. */
START_TEST(post_overflow)
{
	sem_t s;
	int v;

	for (int shared = 0; shared < 2; shared++) {
		ck_assert_int_eq(sem_init(&s, shared, SEM_VALUE_MAX), 0);
		errno = 0;
		ck_assert_int_eq(sem_post(&s), -1);
		ck_assert_int_eq(errno, EOVERFLOW);
		ck_assert_int_eq(sem_getvalue(&s, &v), 0);
		ck_assert_int_eq(v, SEM_VALUE_MAX);
		ck_assert_int_eq(sem_trywait(&s), 0);
		ck_assert_int_eq(sem_post(&s), 0);
		ck_assert_int_eq(sem_destroy(&s), 0);
	}
}
END_TEST

/* Posts are counted; waits consume them; trywait on zero is EAGAIN;
 * sem_getvalue follows. */
START_TEST(counting)
{
	sem_t s;
	int v, i;

	ck_assert_int_eq(sem_init(&s, 0, 2), 0);
	ck_assert_int_eq(sem_getvalue(&s, &v), 0);
	ck_assert_int_eq(v, 2);
	for (i = 0; i < 3; i++) ck_assert_int_eq(sem_post(&s), 0);
	ck_assert_int_eq(sem_getvalue(&s, &v), 0);
	ck_assert_int_eq(v, 5);
	for (i = 0; i < 4; i++) ck_assert_int_eq(sem_wait(&s), 0);
	ck_assert_int_eq(sem_trywait(&s), 0);
	ck_assert_int_eq(sem_getvalue(&s, &v), 0);
	ck_assert_int_eq(v, 0);
	errno = 0;
	ck_assert_int_eq(sem_trywait(&s), -1);
	ck_assert_int_eq(errno, EAGAIN);
	ck_assert_int_eq(sem_destroy(&s), 0);
}
END_TEST

/* sem_timedwait on zero fails with ETIMEDOUT after the deadline, and
 * with EINVAL for a malformed deadline when it would have to block. */
START_TEST(timedwait_errors)
{
	sem_t s;
	struct timespec at;
	uint64_t t0;

	ck_assert_int_eq(sem_init(&s, 0, 0), 0);
	t0 = now_ns();
	at = abs_in_ms(50);
	errno = 0;
	ck_assert_int_eq(sem_timedwait(&s, &at), -1);
	ck_assert_int_eq(errno, ETIMEDOUT);
	ck_assert_slept(t0, 40000000u);

	at = abs_in_ms(1000);
	at.tv_nsec = 1000000000;
	errno = 0;
	ck_assert_int_eq(sem_timedwait(&s, &at), -1);
	ck_assert_int_eq(errno, EINVAL);
	at.tv_nsec = -1;
	errno = 0;
	ck_assert_int_eq(sem_timedwait(&s, &at), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sem_destroy(&s), 0);
}
END_TEST

static sem_t sa, sb;

static void *post_later(void *arg)
{
	ck_assert_int_eq(sem_wait(&sa), 0);
	ck_assert_int_eq(sem_post(&sb), 0);
	return 0;
}

/* A waiter blocked in sem_wait / sem_timedwait is woken by another
 * thread's post, well before its deadline. */
START_TEST(post_wakes_waiter)
{
	pthread_t t;
	struct timespec at;
	int v;

	ck_assert_int_eq(sem_init(&sa, 0, 0), 0);
	ck_assert_int_eq(sem_init(&sb, 0, 0), 0);
	SPAWN(&t, post_later, 0);
	ck_assert_int_eq(sem_post(&sa), 0);
	at = abs_in_ms(20000);
	ck_assert_int_eq(sem_timedwait(&sb, &at), 0);
	JOIN(t, 0);
	SPAWN(&t, post_later, 0);
	ck_assert_int_eq(sem_post(&sa), 0);
	ck_assert_int_eq(sem_wait(&sb), 0);
	JOIN(t, 0);
	ck_assert_int_eq(sem_getvalue(&sa, &v), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(sem_getvalue(&sb, &v), 0);
	ck_assert_int_eq(v, 0);
	sem_destroy(&sa);
	sem_destroy(&sb);
}
END_TEST

/* ---- producer / consumer over a bounded buffer */

#define SLOTS 4
#define NPROD 3
#define NCONS 2
#define PER_PRODUCER 500

static sem_t empty, full;
static pthread_mutex_t buf_lock = PTHREAD_MUTEX_INITIALIZER;
static int buf[SLOTS], head, tail;
static long consumed_sum, consumed_n;

static void *producer(void *arg)
{
	int base = (int)(intptr_t)arg * PER_PRODUCER;
	for (int i = 1; i <= PER_PRODUCER; i++) {
		ck_assert_int_eq(sem_wait(&empty), 0);
		pthread_mutex_lock(&buf_lock);
		buf[tail] = base + i;
		tail = (tail + 1) % SLOTS;
		pthread_mutex_unlock(&buf_lock);
		ck_assert_int_eq(sem_post(&full), 0);
		if (i % 7 == 0) sched_yield();
	}
	return 0;
}

static void *consumer(void *arg)
{
	int n = (int)(intptr_t)arg, v;
	for (int i = 0; i < n; i++) {
		ck_assert_int_eq(sem_wait(&full), 0);
		pthread_mutex_lock(&buf_lock);
		v = buf[head];
		head = (head + 1) % SLOTS;
		consumed_sum += v;
		consumed_n++;
		pthread_mutex_unlock(&buf_lock);
		ck_assert_int_eq(sem_post(&empty), 0);
	}
	return 0;
}

/* Producers and consumers through a bounded buffer guarded by two
 * semaphores: every item arrives exactly once and the buffer never
 * over- or underflows. */
START_TEST(producer_consumer)
{
	pthread_t p[NPROD], c[NCONS];
	const int total = NPROD * PER_PRODUCER;
	long want = (long)total * (total + 1) / 2;
	int i, v;

	ck_assert_int_eq(sem_init(&empty, 0, SLOTS), 0);
	ck_assert_int_eq(sem_init(&full, 0, 0), 0);
	head = tail = 0;
	consumed_sum = consumed_n = 0;
	for (i = 0; i < NCONS; i++)
		SPAWN(&c[i], consumer, (void *)(intptr_t)(total / NCONS + (i < total % NCONS)));
	for (i = 0; i < NPROD; i++) SPAWN(&p[i], producer, (void *)(intptr_t)i);
	for (i = 0; i < NPROD; i++) JOIN(p[i], 0);
	for (i = 0; i < NCONS; i++) JOIN(c[i], 0);
	ck_assert_int_eq(consumed_n, total);
	ck_assert_int_eq(consumed_sum, want);
	ck_assert_int_eq(sem_getvalue(&empty, &v), 0);
	ck_assert_int_eq(v, SLOTS);
	ck_assert_int_eq(sem_getvalue(&full, &v), 0);
	ck_assert_int_eq(v, 0);
	sem_destroy(&empty);
	sem_destroy(&full);
}
END_TEST

/* ---- named semaphores */

#ifndef __GREEN_OVERLAY__
static sem_t *named;

static void *post_named(void *arg)
{
	ck_assert_int_eq(sem_post(named), 0);
	return 0;
}

/* A named semaphore: created exclusively, posted by another thread,
 * waited on, closed and unlinked; afterwards it no longer exists. */
START_TEST(named_semaphore)
{
	char name[64];
	struct timespec at;
	pthread_t t;
	sem_t *again;
	int v;

	snprintf(name, sizeof name, "/green-check-sem-%d", (int)getpid());
	sem_unlink(name);
	named = sem_open(name, O_CREAT | O_EXCL, 0600, 1);
	ck_assert_ptr_ne(named, SEM_FAILED);
	ck_assert_ptr_eq(sem_open(name, O_CREAT | O_EXCL, 0600, 0), SEM_FAILED);
	ck_assert_int_eq(errno, EEXIST);
	ck_assert_int_eq(sem_wait(named), 0);
	ck_assert_int_eq(sem_trywait(named), -1);
	ck_assert_int_eq(errno, EAGAIN);
	SPAWN(&t, post_named, 0);
	at = abs_in_ms(20000);
	ck_assert_int_eq(sem_timedwait(named, &at), 0);
	JOIN(t, 0);
	SPAWN(&t, post_named, 0);
	JOIN(t, 0);
	/* a second open of the same name sees the same semaphore */
	again = sem_open(name, 0);
	ck_assert_ptr_ne(again, SEM_FAILED);
	ck_assert_int_eq(sem_getvalue(again, &v), 0);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(sem_wait(again), 0);
	ck_assert_int_eq(sem_close(again), 0);
	ck_assert_int_eq(sem_close(named), 0);
	ck_assert_int_eq(sem_unlink(name), 0);
	ck_assert_ptr_eq(sem_open(name, 0), SEM_FAILED);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* sem_unlink of a semaphore the caller may not remove is EACCES, the
 * error POSIX names (the kernel says EPERM: /dev/shm is sticky).  Root
 * is needed to leave a semaphore another user cannot remove. */
/* A name that can name no semaphore is not there: ENOENT, as glibc
 * answers (musl's shm_unlink says EINVAL). */
START_TEST(named_unlink_bad_names)
{
	ck_assert_int_eq(sem_unlink(""), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sem_unlink("/"), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sem_unlink("/green-no/such"), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(named_unlink_eacces)
{
	char name[64];
	sem_t *sem;
	pid_t pid;
	int st;

	if (geteuid() != 0) {
		fprintf(stderr, "SKIP: named_unlink_eacces (needs root)\n");
		return;
	}
	snprintf(name, sizeof name, "/green-check-unlink-%d", (int)getpid());
	sem_unlink(name);
	sem = sem_open(name, O_CREAT | O_EXCL, 0644, 0);
	ck_assert_ptr_ne(sem, SEM_FAILED);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		if (seteuid(65534)) _exit(2);
		_exit(sem_unlink(name) == -1 && errno == EACCES ? 0 : errno == EPERM ? 3 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_eq(sem_close(sem), 0);
	ck_assert_int_eq(sem_unlink(name), 0);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x (3: EPERM)", st);
}
END_TEST

/* Name lengths as POSIX counts them: the name after its slash is one
 * pathname component, at most NAME_MAX (255) bytes; one more is
 * ENAMETOOLONG, from sem_open and sem_unlink alike. */
START_TEST(named_name_length)
{
	char name[NAME_MAX + 3];
	sem_t *sem;
	int n;

	n = snprintf(name, sizeof name, "/green-check-%d-", (int)getpid());
	memset(name + n, 'g', NAME_MAX + 1 - n);
	name[NAME_MAX + 1] = 0;           /* a slash and 255 bytes */
	sem_unlink(name);
	sem = sem_open(name, O_CREAT | O_EXCL, 0600, 0);
	ck_assert_ptr_ne(sem, SEM_FAILED);
	ck_assert_int_eq(sem_close(sem), 0);
	ck_assert_int_eq(sem_unlink(name), 0);
	name[NAME_MAX + 1] = 'g';
	name[NAME_MAX + 2] = 0;
	errno = 0;
	ck_assert_ptr_eq(sem_open(name, O_CREAT, 0600, 0), SEM_FAILED);
	ck_assert_int_eq(errno, ENAMETOOLONG);
	errno = 0;
	ck_assert_int_eq(sem_unlink(name), -1);
	ck_assert_int_eq(errno, ENAMETOOLONG);
}
END_TEST

#else
/* The glibc overlay refuses named semaphores (glibc's sem_open lays them
 * out for glibc's sem_wait): a clear ENOSYS, never a semaphore green
 * would misread. */
START_TEST(named_semaphore_refused)
{
	errno = 0;
	ck_assert_ptr_eq(sem_open("/green-check-sem", O_CREAT, 0600, 1), SEM_FAILED);
	ck_assert_int_eq(errno, ENOSYS);
}
END_TEST

#endif

/* ---- process-shared */

/* shared with the forked child, which posts only once the parent's
 * other thread has ticked */
struct forked {
	sem_t s;
	int ticks;
	int stop;
};

static void *ticker(void *arg)
{
	struct forked *f = arg;
	struct timespec ms = { 0, 1000000 };
	while (!__atomic_load_n(&f->stop, __ATOMIC_SEQ_CST)) {
		nanosleep(&ms, 0);
		__atomic_add_fetch(&f->ticks, 1, __ATOMIC_SEQ_CST);
	}
	return 0;
}

/* A process-shared semaphore in MAP_SHARED memory, posted by a forked
 * child, wakes the parent blocked in sem_timedwait; another thread of
 * the parent keeps running while it waits: the child posts only once
 * that thread has ticked (in green mode, ticks off, it runs only while
 * the parent's main thread waits), not after a delay that a loaded
 * machine may outlast before the parent even begins to wait. */
START_TEST(pshared_fork)
{
	struct forked *f = mmap(0, sizeof *f, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct timespec at, ms = { 0, 1000000 };
	pthread_t t;
	int status, v;
	pid_t pid;

	ck_assert_ptr_ne(f, MAP_FAILED);
	ck_assert_int_eq(sem_init(&f->s, 1, 0), 0);
	SPAWN(&t, ticker, f);
	pid = fork();
	ck_assert_int_ne(pid, -1);
	if (pid == 0) {
		for (int i = 0; i < 20000 && !__atomic_load_n(&f->ticks, __ATOMIC_SEQ_CST); i++)
			nanosleep(&ms, 0);
		_exit(sem_post(&f->s) ? 1 : 0);
	}
	at = abs_in_ms(30000);
	ck_assert_int_eq(sem_timedwait(&f->s, &at), 0);
	__atomic_store_n(&f->stop, 1, __ATOMIC_SEQ_CST);
	JOIN(t, 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_gt(f->ticks, 0);
	ck_assert_int_eq(sem_getvalue(&f->s, &v), 0);
	ck_assert_int_eq(v, 0);
	sem_destroy(&f->s);
	munmap(f, sizeof *f);
}
END_TEST

/* A process-shared semaphore times out, and rejects a malformed
 * deadline, like a private one. */
START_TEST(pshared_timedwait)
{
	sem_t *s = mmap(0, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct timespec at;
	uint64_t t0;

	ck_assert_ptr_ne(s, MAP_FAILED);
	ck_assert_int_eq(sem_init(s, 1, 1), 0);
	ck_assert_int_eq(sem_trywait(s), 0);
	ck_assert_int_eq(sem_trywait(s), -1);
	ck_assert_int_eq(errno, EAGAIN);
	t0 = now_ns();
	at = abs_in_ms(50);
	ck_assert_int_eq(sem_timedwait(s, &at), -1);
	ck_assert_int_eq(errno, ETIMEDOUT);
	ck_assert_slept(t0, 40000000u);
	at = abs_in_ms(1000);
	at.tv_nsec = 1000000000;
	errno = 0;
	ck_assert_int_eq(sem_timedwait(s, &at), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sem_post(s), 0);
	ck_assert_int_eq(sem_wait(s), 0);
	sem_destroy(s);
	munmap(s, sizeof *s);
}
END_TEST

Suite *suite_sem(void)
{
	Suite *s = suite_create("sem");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, init_too_large);
	tcase_add_test(tc, post_overflow);
	tcase_add_test(tc, counting);
	tcase_add_test(tc, timedwait_errors);
	tcase_add_test(tc, post_wakes_waiter);
	tcase_add_test(tc, producer_consumer);
#ifdef __GREEN_OVERLAY__
	tcase_add_test(tc, named_semaphore_refused);
#else
	tcase_add_test(tc, named_semaphore);
	tcase_add_test(tc, named_unlink_bad_names);
	tcase_add_test(tc, named_unlink_eacces);
	tcase_add_test(tc, named_name_length);
#endif
	tcase_add_test(tc, pshared_fork);
	tcase_add_test(tc, pshared_timedwait);
	suite_add_tcase(s, tc);
	return s;
}
