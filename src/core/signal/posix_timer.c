/*
 * posix_timer.c — timer_create with SIGEV_THREAD.
 *
 * musl hands the kernel a helper thread's tid to signal at expiry; a
 * green thread has no kernel tid (the kernel refuses: EINVAL) and the
 * helper would wait in the kernel for the signal anyway.  Green's own
 * kind of timer needs no kernel timer and no signal: each timer has a
 * dedicated green thread, detached, created with the sigevent's
 * attributes, that sleeps on the timer heap until the next expiry and
 * then calls the notification function itself — one call at a time, as
 * musl's helper does, so a function that takes longer than the period
 * is not piled up in threads.
 *
 * Overruns: expiries that passed while the thread was busy (in the
 * function, or kept off the CPU) are not notified one by one; the next
 * notification counts them, and timer_getoverrun, called from the
 * function, returns that count (at most DELAYTIMER_MAX), as POSIX says
 * of a signal that was still pending.
 *
 * The thread waits on the timer's generation word (a user-level futex,
 * futex.c) with the expiry as its deadline; timer_settime and
 * timer_delete bump the word and wake it.  A deleted timer's thread
 * frees the timer when it next looks, after any call in progress.
 *
 * Deadlines are CLOCK_MONOTONIC ns (timer.c): an absolute
 * CLOCK_REALTIME expiry is converted when it is set, so a later step of
 * the wall clock does not move it (docs/limits.md).
 *
 * A timer is named by its address shifted right one bit with the sign
 * bit set (musl's convention for its own thread timers): kernel timer
 * ids are never negative, so the wrappers (src/members/timer_*.c) tell the
 * two apart without a table.
 */
#include <stdlib.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include "base/gthread.h"
#include "base/section.h"
#include "sched/gsched.h"
#include "sync/addrwait.h"
#include "signal/ptimer.h"

#define TIMER_MAGIC 0x746d7220u

struct gtimer {
	unsigned magic;
	clockid_t clk;
	volatile int gen;             /* bumped on every change: the thread's wake word */
	int deleted;
	int overrun;                  /* of the notification in progress */
	uint64_t next;                /* next expiry (monotonic ns), 0 when disarmed */
	uint64_t interval;            /* ns, 0 for a one-shot timer */
	void (*fn)(union sigval);
	union sigval val;
};

static struct gtimer *timer_of(timer_t id)
{
	struct gtimer *t;
	if ((intptr_t)id >= 0) return 0;
	t = (struct gtimer *)((uintptr_t)id << 1);
	return t->magic == TIMER_MAGIC ? t : 0;
}

static void poke(struct gtimer *t)
{
	t->gen++;
	__green_futex_wake(&t->gen, 1);
}

/* Inside GREEN_ENTER: is an expiry due?  Then arm the next and count
 * the ones missed. */
static int due(struct gtimer *t)
{
	uint64_t now = __green_now(), missed = 0;

	if (!t->next || now < t->next) return 0;
	if (t->interval) {
		missed = (now - t->next) / t->interval;
		t->next += (missed + 1) * t->interval;
	} else {
		t->next = 0;
	}
	t->overrun = missed > DELAYTIMER_MAX ? DELAYTIMER_MAX : (int)missed;
	return 1;
}

static void *run(void *arg)
{
	struct gtimer *t = arg;
	int gen;
	uint64_t deadline;

	for (;;) {
		GREEN_ENTER();
		while (!t->deleted && !due(t)) {
			gen = t->gen;
			deadline = t->next ? t->next : GREEN_NO_DEADLINE;
			GREEN_LEAVE();
			__green_futex_wait(&t->gen, gen, deadline, GW_SLEEP);
			GREEN_ENTER();
		}
		GREEN_LEAVE();
		if (t->deleted) break;
		t->fn(t->val);
	}
	t->magic = 0;
	free(t);
	return 0;
}

hidden int __green_timer_create(clockid_t clk, const struct sigevent *sev, timer_t *id)
{
	pthread_attr_t attr;
	struct gtimer *t;
	pthread_t td;
	int r;

	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC && clk != CLOCK_BOOTTIME)
		return EINVAL;
	if (!(t = calloc(1, sizeof *t))) return EAGAIN;
	t->magic = TIMER_MAGIC;
	t->clk = clk;
	t->fn = sev->sigev_notify_function;
	t->val = sev->sigev_value;
	if (sev->sigev_notify_attributes) attr = *sev->sigev_notify_attributes;
	else pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if ((r = pthread_create(&td, &attr, run, t))) {
		free(t);
		return EAGAIN;
	}
	*id = (timer_t)(INTPTR_MIN | (uintptr_t)t >> 1);
	return 0;
}

hidden int __green_timer_delete(timer_t id)
{
	struct gtimer *t = timer_of(id);
	if (!t) return EINVAL;
	GREEN_ENTER();
	t->deleted = 1;
	t->magic = 0;
	poke(t);
	GREEN_LEAVE();
	return 0;
}

static uint64_t ns_of(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000u + ts->tv_nsec;
}

static struct timespec ts_of(uint64_t ns)
{
	return (struct timespec){ .tv_sec = ns / 1000000000u, .tv_nsec = ns % 1000000000u };
}

static void get(struct gtimer *t, struct itimerspec *v)
{
	uint64_t now = __green_now();
	v->it_interval = ts_of(t->interval);
	v->it_value = ts_of(!t->next ? 0 : t->next > now ? t->next - now : 1);
}

hidden int __green_timer_gettime(timer_t id, struct itimerspec *v)
{
	struct gtimer *t = timer_of(id);
	if (!t) return EINVAL;
	GREEN_ENTER();
	get(t, v);
	GREEN_LEAVE();
	return 0;
}

static int bad(const struct timespec *ts)
{
	return ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000;
}

hidden int __green_timer_settime(timer_t id, int flags, const struct itimerspec *v, struct itimerspec *old)
{
	struct gtimer *t = timer_of(id);
	uint64_t next = 0;
	int err = 0;

	if (!t || bad(&v->it_value) || bad(&v->it_interval)) return EINVAL;
	if (v->it_value.tv_sec || v->it_value.tv_nsec) {
		next = flags & TIMER_ABSTIME ? __green_deadline(t->clk, &v->it_value, &err)
		                             : __green_deadline_rel(&v->it_value);
		if (err) return err;
		if (!next) next = 1;
	}
	GREEN_ENTER();
	if (old) get(t, old);
	t->next = next;
	t->interval = ns_of(&v->it_interval);
	poke(t);
	GREEN_LEAVE();
	return 0;
}

hidden int __green_timer_getoverrun(timer_t id)
{
	struct gtimer *t = timer_of(id);
	if (!t) return -EINVAL;
	return t->overrun;
}
