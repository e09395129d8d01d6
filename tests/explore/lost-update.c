/* lost-update — an unprotected read-modify-write.  Two threads add up
 * prices into one total; between the load of the total and the store of
 * the new one each calls price(): a preemption there loses the other
 * thread's updates.  Needs `green-cc --sched-points` (no library call
 * separates the load from the store). */
#include <assert.h>
#include <pthread.h>

#define ITEMS 20
static long total;

__attribute__((noinline)) static long price(int item)
{
	return item % 7 + 1;
}

static void *cashier(void *arg)
{
	for (int i = 0; i < ITEMS; i++) {
		long v = total;          /* load */
		v += price(i);
		total = v;               /* store: a switch since the load loses updates */
	}
	return 0;
}

int main(void)
{
	pthread_t a, b;
	long want = 0;
	for (int i = 0; i < ITEMS; i++) want += 2 * price(i);
	pthread_create(&a, 0, cashier, 0);
	pthread_create(&b, 0, cashier, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(total == want);
	return 0;
}
