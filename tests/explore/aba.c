/* aba — the ABA problem of a lock-free stack (a Treiber stack without a
 * version tag).  One thread pops: it reads the top node A and A's next,
 * B, then swings the top from A to B with a compare-and-swap.  If, in
 * between, another thread pops A, pops B and pushes A back, the top is A
 * again and the compare-and-swap succeeds: the top becomes B, a node the
 * other thread still holds.  The oracle counts every node once: in the
 * stack or held by a thread.  Needs the popper to be preempted between
 * its load of A's next and its compare-and-swap, and the other thread
 * to make three operations before it runs again. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

struct node {
	struct node *next;
	int id;
};

static struct node nodes[4];
static struct node *top;

static void push(struct node *n)
{
	struct node *t;
	do {
		t = __atomic_load_n(&top, __ATOMIC_ACQUIRE);
		n->next = t;
	} while (!__atomic_compare_exchange_n(&top, &t, n, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

static struct node *pop(void)
{
	struct node *t, *next;
	do {
		t = __atomic_load_n(&top, __ATOMIC_ACQUIRE);
		if (!t) return 0;
		next = t->next;     /* the ABA window: t may be popped and pushed back */
	} while (!__atomic_compare_exchange_n(&top, &t, next, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	return t;
}

static struct node *held[2][2];

static void *one_pop(void *arg)
{
	held[0][0] = pop();
	return arg;
}

static void *recycle(void *arg)
{
	struct node *a = pop(), *b = pop();
	held[1][0] = b;
	if (a) push(a);     /* A goes back on top: the same address as before */
	return arg;
}

int main(void)
{
	pthread_t p, q;
	int seen[4] = { 0 };
	for (int i = 3; i >= 0; i--) {
		nodes[i].id = i;
		push(&nodes[i]);
	}
	pthread_create(&p, 0, one_pop, 0);
	pthread_create(&q, 0, recycle, 0);
	pthread_join(p, 0);
	pthread_join(q, 0);
	for (struct node *n = top; n; n = n->next) seen[n->id]++;
	for (int i = 0; i < 2; i++)
		if (held[i][0]) seen[held[i][0]->id]++;
	for (int i = 0; i < 4; i++)
		assert(seen[i] == 1);   /* each node in exactly one place */
	return 0;
}
