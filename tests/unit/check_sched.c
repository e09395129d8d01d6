/*
 * check_sched.c — Check suite: sched.
 *
 * Where a thread that another thread woke queues (docs/preemption.md,
 * "A thread woken by another thread"): a SCHED_OTHER thread woken by a
 * condition's signal, a mutex's unlock, a post, a barrier, a join runs
 * when the running thread's turn ends, ahead of the threads already
 * runnable; several woken from one object keep their order; a
 * SCHED_FIFO, SCHED_RR or SCHED_BATCH one joins the tail (POSIX for the
 * first two, Linux's rule for the third); and two threads that keep
 * waking each other let a runnable or computing thread run after at
 * most RUNQ_PASSES of their turns (src/core/sched/runq.h).
 *
 * The exact orders are asserted in a cooperative schedule
 * (GREEN_QUANTUM_MS=0); the cases beside spinners need the tick and
 * count turns, never time.
 */
#include "testutil.h"
#include <errno.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* runq.h's RUNQ_PASSES: how many threads a runnable one lets ahead */
#define PASSES 8

/* ---- the order in which threads run, as letters */

static char order[64];
static int norder;
static void note(char c) { if (norder < (int)sizeof order - 1) order[norder++] = c; order[norder] = 0; }
static void *noter(void *c) { note((char)(intptr_t)c); return 0; }

/* ---- one waiter, woken by main while two threads are runnable */

enum kind { BY_COND, BY_COND_HELD, BY_MUTEX, BY_SEM, BY_JOIN, BY_BARRIER, NKINDS };
static const char *const kind_name[NKINDS] = {
	"a condition's signal", "a condition's signal, its mutex held", "a mutex's unlock",
	"a post", "a join", "a barrier"
};
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER, ready_c = PTHREAD_COND_INITIALIZER;
static sem_t s;
static pthread_barrier_t bar;
static pthread_t joined;
static int go, ready;

/* tell main this thread waits (it does once main holds m again) */
static void waiting(void)
{
	ready = 1;
	pthread_cond_signal(&ready_c);
}

static void *joinee(void *arg)
{
	sem_wait(&s);
	return arg;
}

static int started;   /* the waiter is about to make its waiting call */

static void *waiter(void *arg)
{
	__atomic_store_n(&started, 1, __ATOMIC_SEQ_CST);
	switch ((enum kind)(intptr_t)arg) {
	case BY_COND: case BY_COND_HELD:
		pthread_mutex_lock(&m);
		while (!go) pthread_cond_wait(&c, &m);
		pthread_mutex_unlock(&m);
		break;
	case BY_MUTEX:
		pthread_mutex_lock(&m);   /* main holds it */
		pthread_mutex_unlock(&m);
		break;
	case BY_SEM:
		sem_wait(&s);
		break;
	case BY_JOIN:
		JOIN(joined, 0);
		break;
	case BY_BARRIER:
		pthread_barrier_wait(&bar);
		break;
	default:
		break;
	}
	note('W');
	return 0;
}

static pthread_t spawn_as(void *(*fn)(void *), int policy, void *arg)
{
	pthread_t t;
	if (policy == SCHED_OTHER) SPAWN(&t, fn, arg);
	else t = spawn_prio(fn, policy, policy == SCHED_BATCH ? 0 : 10, arg);
	return t;
}

/* Start the waiter of kind k, of the policy given, and let it block
 * (main sleeps: in a cooperative schedule the waiter runs until it
 * waits); then two threads of the same policy, runnable, that have not
 * run; wake the waiter; wait for all three: the order they ran in. */
static const char *woken_beside_runnable(enum kind k, int policy)
{
	pthread_t w, r[2];

	norder = go = started = 0;
	order[0] = 0;
	sem_init(&s, 0, 0);
	pthread_barrier_init(&bar, 0, 2);
	if (k == BY_MUTEX) pthread_mutex_lock(&m);
	if (k == BY_JOIN) joined = spawn_as(joinee, policy, 0);
	w = spawn_as(waiter, policy, (void *)(intptr_t)k);
	/* main blocks, so the waiter, the one thread runnable, runs from
	 * its start to its wait with no switch (the flag says it started) */
	while (!__atomic_load_n(&started, __ATOMIC_SEQ_CST)) usleep(1000);
	for (int i = 0; i < 2; i++) r[i] = spawn_as(noter, policy, (void *)(intptr_t)('1' + i));
	switch (k) {
	case BY_COND: case BY_COND_HELD:   /* the signal after the unlock, or before */
		pthread_mutex_lock(&m);
		go = 1;
		if (k == BY_COND) pthread_mutex_unlock(&m);
		pthread_cond_signal(&c);
		if (k == BY_COND_HELD) pthread_mutex_unlock(&m);
		break;
	case BY_MUTEX:
		pthread_mutex_unlock(&m);
		break;
	case BY_SEM:
		sem_post(&s);
		break;
	case BY_JOIN:
		sem_post(&s);   /* the joinee runs and exits, which wakes the waiter */
		break;
	case BY_BARRIER:
		pthread_barrier_wait(&bar);
		break;
	default:
		break;
	}
	JOIN(w, 0);
	for (int i = 0; i < 2; i++) JOIN(r[i], 0);
	sem_destroy(&s);
	pthread_barrier_destroy(&bar);
	return order;
}

/* A SCHED_OTHER thread woken by another runs when the waker's turn ends,
 * ahead of the threads runnable before: whatever woke it. */
START_TEST(woken_runs_next)
{
	for (int k = 0; k < NKINDS; k++) {
		const char *got = woken_beside_runnable(k, SCHED_OTHER);
		ck_assert_msg(!strcmp(got, "W12"), "woken by %s, SCHED_OTHER: ran in the order %s, not W12",
		              kind_name[k], got);
	}
}
END_TEST

/* POSIX: a SCHED_FIFO or SCHED_RR thread that becomes runnable joins the
 * tail of its priority's list.  Main runs above them (SCHED_FIFO 50). */
START_TEST(woken_realtime_joins_tail)
{
	static const int pol[2] = { SCHED_FIFO, SCHED_RR };
	struct sched_param sp = { .sched_priority = 50 };

	ck_assert_int_eq(pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp), 0);
	for (int p = 0; p < 2; p++)
		for (int k = 0; k < NKINDS; k++) {
			const char *got = woken_beside_runnable(k, pol[p]);
			ck_assert_msg(!strcmp(got, "12W"), "woken by %s, %s: ran in the order %s, not 12W",
			              kind_name[k], pol[p] == SCHED_FIFO ? "SCHED_FIFO" : "SCHED_RR", got);
		}
	sp.sched_priority = 0;
	ck_assert_int_eq(pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp), 0);
}
END_TEST

/* Linux gives wake-up preemption to SCHED_NORMAL wakees only: a woken
 * SCHED_BATCH thread queues at the tail. */
START_TEST(woken_batch_joins_tail)
{
	const char *got = woken_beside_runnable(BY_COND, SCHED_BATCH);
	ck_assert_msg(!strcmp(got, "12W"), "SCHED_BATCH: ran in the order %s, not 12W", got);
}
END_TEST

/* Three threads one broadcast wakes keep their order, ahead of the
 * runnable ones. */
static void *broadcast_waiter(void *arg)
{
	pthread_mutex_lock(&m);
	ready++;
	pthread_cond_signal(&ready_c);
	while (!go) pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	note((char)(intptr_t)arg);
	return 0;
}

START_TEST(broadcast_keeps_order)
{
	pthread_t w[3], r[2];

	norder = go = ready = 0;
	pthread_mutex_lock(&m);
	for (int i = 0; i < 3; i++) {
		SPAWN(&w[i], broadcast_waiter, (void *)(intptr_t)('A' + i));
		while (ready <= i) pthread_cond_wait(&ready_c, &m);
	}
	go = 1;
	pthread_mutex_unlock(&m);
	for (int i = 0; i < 2; i++) SPAWN(&r[i], noter, (void *)(intptr_t)('1' + i));
	pthread_cond_broadcast(&c);
	for (int i = 0; i < 3; i++) JOIN(w[i], 0);
	for (int i = 0; i < 2; i++) JOIN(r[i], 0);
	ck_assert_msg(!strcmp(order, "ABC12"), "ran in the order %s, not ABC12", order);
}
END_TEST

/* ---- the bound: two threads handing a turn to each other */

#define HANDOFFS 200
static sem_t turn[2];
static volatile int handoffs;

static void *pair_player(void *arg)
{
	int me = (int)(intptr_t)arg;
	while (handoffs < HANDOFFS) {
		sem_wait(&turn[me]);
		if (handoffs < HANDOFFS) handoffs++;
		sem_post(&turn[!me]);
	}
	return 0;
}

static void pair_start(pthread_t *p)
{
	handoffs = 0;
	sem_init(&turn[0], 0, 1);
	sem_init(&turn[1], 0, 0);
	for (int i = 0; i < 2; i++) SPAWN(&p[i], pair_player, (void *)(intptr_t)i);
}

static void pair_end(pthread_t *p)
{
	for (int i = 0; i < 2; i++) JOIN(p[i], 0);
	sem_destroy(&turn[0]);
	sem_destroy(&turn[1]);
}

/* A runnable thread (one that yields) runs between every PASSES + 2
 * hand-offs at most: the player queued ahead of it takes its turn, the
 * pair's wakes pass it PASSES times, the next queues behind it and the
 * one that woke it takes its turn to its end. */
static int yielder_gap;

static void *yielder(void *arg)
{
	int last = -1;
	for (;;) {
		int h = handoffs;
		if (last >= 0 && h - last > yielder_gap) yielder_gap = h - last;
		last = h;
		if (h >= HANDOFFS) return 0;
		sched_yield();
	}
}

START_TEST(woken_pair_lets_runnable_run)
{
	pthread_t p[2], y;

	yielder_gap = 0;
	SPAWN(&y, yielder, 0);
	pair_start(p);
	pair_end(p);
	JOIN(y, 0);
	ck_assert_msg(yielder_gap <= PASSES + 2,
	              "a runnable thread waited for %d hand-offs of two threads waking each other (at most %d)",
	              yielder_gap, PASSES + 2);
}
END_TEST

/* The same beside a thread that computes without a call: the tick
 * preempts it, the pair's wakes pass it PASSES times, then it runs
 * again.  Counted in the pair's turns between two in which its
 * progress moved. */
static volatile unsigned long progress;
static volatile int spin_done;

static void *computer(void *arg)
{
	while (!spin_done) progress++;
	return 0;
}

static int computer_gap;

static void *watching_player(void *arg)
{
	int me = (int)(intptr_t)arg, still = 0;
	unsigned long seen = progress;

	while (handoffs < HANDOFFS) {
		sem_wait(&turn[me]);
		if (me == 0) {   /* the computer's progress, at every other hand-off */
			if (progress != seen) {
				seen = progress;
				still = 0;
			} else if (++still > computer_gap) {
				computer_gap = still;
			}
		}
		if (handoffs < HANDOFFS) handoffs++;
		sem_post(&turn[!me]);
	}
	return 0;
}

START_TEST(woken_pair_lets_computing_run)
{
	pthread_t p[2], cpt;
	unsigned long before;

	computer_gap = 0;
	spin_done = 0;
	progress = 0;
	SPAWN(&cpt, computer, 0);
	/* it runs and a tick preempts it: it computes */
	before = progress;
	sched_yield();
	while (progress == before) sched_yield();
	handoffs = 0;
	sem_init(&turn[0], 0, 1);
	sem_init(&turn[1], 0, 0);
	for (int i = 0; i < 2; i++) SPAWN(&p[i], watching_player, (void *)(intptr_t)i);
	for (int i = 0; i < 2; i++) JOIN(p[i], 0);
	spin_done = 1;
	JOIN(cpt, 0);
	sem_destroy(&turn[0]);
	sem_destroy(&turn[1]);
	/* The first player's turns are every other hand-off: PASSES + 2
	 * hand-offs are (PASSES + 2) / 2 of them, natively the figure (5).
	 * A tick that comes as the computer is switched in preempts it at
	 * once, before it counts (it computes, and a thread that slept
	 * waits): a turn without progress, the gap doubled, every time
	 * under valgrind, which delivers signals late (10).  The check
	 * allows twice that; without the bound the gap is every one of the
	 * first player's turns (100). */
	ck_assert_msg(computer_gap <= 2 * (PASSES + 2),
	              "a computing thread did not run for %d turns of a thread waking another (at most %d)",
	              computer_gap, 2 * (PASSES + 2));
}
END_TEST

/* ---- beside spinners: the woken thread runs at the next tick */

#define SPINNERS 4
static volatile int last_runner = -1, spinners_done, signal_now;
static volatile unsigned long turns, spin_turns[SPINNERS];
static unsigned long turns_after_signal, turns_at_wake;

/* a spinner whose turn began: counted */
static void turn_note(int me)
{
	if (last_runner != me) {
		last_runner = me;
		turns++;
		spin_turns[me]++;
	}
}

static int all_turned(unsigned long n)
{
	for (int i = 0; i < SPINNERS; i++)
		if (spin_turns[i] < n) return 0;
	return 1;
}

static void *turn_spinner(void *arg)
{
	int me = (int)(intptr_t)arg;
	while (!spinners_done) {
		turn_note(me);
		if (me == 0 && !signal_now && all_turned(3)) {
			signal_now = 1;
			pthread_mutex_lock(&m);
			go = 1;
			pthread_cond_signal(&c);
			pthread_mutex_unlock(&m);
			turn_note(me);   /* a preemption before the signal began another turn */
			turns_after_signal = turns;
		}
	}
	return 0;
}

static void *turn_waiter(void *arg)
{
	pthread_mutex_lock(&m);
	waiting();
	while (!go) pthread_cond_wait(&c, &m);
	turns_at_wake = turns;
	pthread_mutex_unlock(&m);
	spinners_done = 1;
	return 0;
}

START_TEST(woken_passes_spinners)
{
	pthread_t w, sp[SPINNERS];

	go = ready = 0;
	spinners_done = signal_now = 0;
	turns = 0;
	last_runner = -1;
	memset((void *)spin_turns, 0, sizeof spin_turns);
	pthread_mutex_lock(&m);
	SPAWN(&w, turn_waiter, 0);
	while (!ready) pthread_cond_wait(&ready_c, &m);
	pthread_mutex_unlock(&m);
	for (int i = 0; i < SPINNERS; i++) SPAWN(&sp[i], turn_spinner, (void *)(intptr_t)i);
	JOIN(w, 0);
	for (int i = 0; i < SPINNERS; i++) JOIN(sp[i], 0);
	/* after its signal the spinner computes on until a tick preempts it,
	 * and the woken thread runs next: no other spinner's turn between
	 * (a preemption of the signaller right after its signal, before its
	 * count, only lowers turns_at_wake) */
	ck_assert_msg(turns_at_wake <= turns_after_signal,
	              "%lu spinners' turns came between the signal and the woken thread's",
	              turns_at_wake - turns_after_signal);
}
END_TEST

Suite *suite_sched(void)
{
	Suite *s = suite_create("sched");
	TCase *tc = tcase_create("woken");

	tcase_set_timeout(tc, 60);
	/* green's run-queue order: kernel threads run in any, and under
	 * GREEN_SCHED any interleaving is explored */
	if (GREEN_MODE && cooperative()) {
		tcase_add_test(tc, woken_runs_next);
		tcase_add_test(tc, woken_realtime_joins_tail);
		tcase_add_test(tc, woken_batch_joins_tail);
		tcase_add_test(tc, broadcast_keeps_order);
		tcase_add_test(tc, woken_pair_lets_runnable_run);
	}
	/* a spinner gives the CPU up only to the tick */
	if (GREEN_MODE && ticking()) {
		tcase_add_test(tc, woken_pair_lets_computing_run);
		tcase_add_test(tc, woken_passes_spinners);
	}
	suite_add_tcase(s, tc);
	return s;
}
