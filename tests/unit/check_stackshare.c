/*
 * check_stackshare.c — Check suite: stackshare.
 *
 * Objects on one thread's stack used by another while their owner is
 * parked: a request on the stack handed to a worker and waited for, and
 * a list of nodes on the stacks of many threads walked by another.  With
 * copied stacks (the copied mode of tests/unit/modes.txt) more threads take turns than
 * copied mode keeps mapped (256), so the owner's stack is unmapped, its
 * live part saved, when the other thread reaches into it
 * (docs/stacks.md); the results must be right all the same.
 */
#include "testutil.h"
#include <sched.h>
#include <stdint.h>
#include <string.h>

#define CROWD 300          /* more threads than copied mode keeps mapped */

/* ---- a crowd of threads taking turns, to push parked stacks out */

static int crowd_stop;
static unsigned long crowd_turns;

static void *crowd_body(void *arg)
{
	volatile char frame[512];   /* a live stack worth saving */
	frame[0] = (char)(intptr_t)arg;
	while (!__atomic_load_n(&crowd_stop, __ATOMIC_ACQUIRE)) {
		__atomic_add_fetch(&crowd_turns, 1, __ATOMIC_RELEASE);
		sched_yield();
	}
	return (void *)(intptr_t)frame[0];
}

static pthread_t crowd[CROWD];

static void crowd_start(void)
{
	crowd_stop = 0;
	for (intptr_t i = 0; i < CROWD; i++) SPAWN(&crowd[i], crowd_body, (void *)(i & 63));
}

static void crowd_end(void)
{
	__atomic_store_n(&crowd_stop, 1, __ATOMIC_RELEASE);
	for (intptr_t i = 0; i < CROWD; i++) {
		void *r;
		JOIN(crowd[i], &r);
		ck_assert_int_eq((int)(intptr_t)r, (int)(i & 63));
	}
}

/* Yield until every thread of the crowd has had a turn since `from`. */
static void crowd_wait(unsigned long from)
{
	while (__atomic_load_n(&crowd_turns, __ATOMIC_ACQUIRE) < from + 2 * CROWD) sched_yield();
}

/* ---- a request on the stack, handed to a worker, waited for */

struct req {
	pthread_mutex_t m;
	pthread_cond_t c;
	int done;
	unsigned in, out, sum;
	unsigned char payload[200];
	struct req *next;
};

static pthread_mutex_t q_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_c = PTHREAD_COND_INITIALIZER;
static struct req *q_head;

static void *worker(void *arg)
{
	for (;;) {
		struct req *r;
		unsigned sum = 0;
		pthread_mutex_lock(&q_m);
		while (!q_head) pthread_cond_wait(&q_c, &q_m);
		r = q_head;
		q_head = r->next;
		pthread_mutex_unlock(&q_m);
		if (!r->in) return arg;
		crowd_wait(__atomic_load_n(&crowd_turns, __ATOMIC_ACQUIRE));   /* its owner parked long */
		for (size_t i = 0; i < sizeof r->payload; i++) sum += r->payload[i];
		pthread_mutex_lock(&r->m);
		r->out = r->in * 3 + 1;
		r->sum = sum;
		r->done = 1;
		pthread_cond_signal(&r->c);
		pthread_mutex_unlock(&r->m);
	}
}

static void submit(struct req *r)
{
	pthread_mutex_lock(&q_m);
	r->next = q_head;
	q_head = r;
	pthread_cond_signal(&q_c);
	pthread_mutex_unlock(&q_m);
}

#define CLIENTS 2
#define ROUNDS 5

static void *client(void *arg)
{
	unsigned id = (unsigned)(intptr_t)arg, bad = 0;
	for (unsigned k = 0; k < ROUNDS; k++) {
		struct req r = { .in = id * 1000 + k + 1 };
		unsigned sum = 0;
		pthread_mutex_init(&r.m, 0);
		pthread_cond_init(&r.c, 0);
		for (size_t i = 0; i < sizeof r.payload; i++) sum += r.payload[i] = (unsigned char)(i * 7 + id + k);
		submit(&r);
		pthread_mutex_lock(&r.m);
		while (!r.done) pthread_cond_wait(&r.c, &r.m);
		pthread_mutex_unlock(&r.m);
		if (r.out != r.in * 3 + 1 || r.sum != sum) bad++;
		pthread_cond_destroy(&r.c);
		pthread_mutex_destroy(&r.m);
	}
	return (void *)(intptr_t)bad;
}

START_TEST(request_on_stack)
{
	pthread_t w, c[CLIENTS];
	struct req stop = { .in = 0 };
	void *r;

	crowd_start();
	SPAWN(&w, worker, (void *)5);
	for (intptr_t i = 0; i < CLIENTS; i++) SPAWN(&c[i], client, (void *)(i + 1));
	for (int i = 0; i < CLIENTS; i++) {
		JOIN(c[i], &r);
		ck_assert_int_eq((int)(intptr_t)r, 0);
	}
	submit(&stop);
	JOIN(w, &r);
	ck_assert_int_eq((int)(intptr_t)r, 5);
	crowd_end();
}
END_TEST

/* ---- a list of nodes on the stacks of many threads */

struct node {
	struct node *next;
	unsigned value, seen;
};

static struct node *list;
static pthread_mutex_t list_m = PTHREAD_MUTEX_INITIALIZER;   /* pushes race under 1:1 */
static int listed, walked;

static void *lister(void *arg)
{
	struct node n = { .value = (unsigned)(intptr_t)arg * 11 };
	volatile char below[700];   /* frames below the node */
	below[0] = 1;
	pthread_mutex_lock(&list_m);
	n.next = list;
	list = &n;
	pthread_mutex_unlock(&list_m);
	__atomic_add_fetch(&listed, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&walked, __ATOMIC_ACQUIRE)) sched_yield();
	return (void *)(intptr_t)(n.seen == n.value + 1 && below[0] == 1);
}

static void *walker(void *arg)
{
	unsigned long sum = 0;
	pthread_mutex_lock(&list_m);   /* for 1:1: every push is seen, with its node */
	for (struct node *n = list; n; n = n->next) {
		sum += n->value;
		n->seen = n->value + 1;
	}
	pthread_mutex_unlock(&list_m);
	return (void *)(uintptr_t)sum;
}

START_TEST(list_of_stack_nodes)
{
	enum { N = CROWD };
	pthread_t t[N], w;
	unsigned long want = 0;
	void *r;

	list = 0;
	listed = walked = 0;
	for (intptr_t i = 0; i < N; i++) {
		SPAWN(&t[i], lister, (void *)(i + 1));
		want += (unsigned long)(i + 1) * 11;
	}
	while (__atomic_load_n(&listed, __ATOMIC_ACQUIRE) < N) sched_yield();
	SPAWN(&w, walker, 0);
	JOIN(w, &r);
	ck_assert_uint_eq((uintptr_t)r, want);
	__atomic_store_n(&walked, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < N; i++) {
		JOIN(t[i], &r);
		ck_assert_int_eq((int)(intptr_t)r, 1);
	}
}
END_TEST

Suite *suite_stackshare(void)
{
	Suite *s = suite_create("stackshare");
	TCase *tc = tcase_create("stackshare");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, request_on_stack);
	tcase_add_test(tc, list_of_stack_nodes);
	suite_add_tcase(s, tc);
	return s;
}
