/* stack-share — threads update a tally that lives in main's frame, as
 * programs hand main-stack addresses to their threads.  The kernel
 * starts the initial stack at a random offset within a page, so where
 * the tally's slots fall on pages differs from run to run unless
 * address-space randomisation is off or green keys main's stack by a
 * distance that does not move (src/mempoints/shared.c): a seed must
 * replay with the same decision hash either way.  The bug: the slots
 * are counted without a lock, and a switch between one thread's load
 * and store loses the other's update. */
#include <assert.h>
#include <pthread.h>

#define SLOTS 1024                 /* 8 KiB: two or three pages of stack */
#define STRIDE 97

struct tally {
	long slot[SLOTS];
};

static void *count(void *arg)
{
	struct tally *t = arg;
	for (int i = 0; i < SLOTS; i += STRIDE)
		t->slot[i]++;
	return 0;
}

int main(void)
{
	struct tally t = { { 0 } };
	pthread_t a, b;
	pthread_create(&a, 0, count, &t);
	pthread_create(&b, 0, count, &t);
	pthread_join(a, 0);
	pthread_join(b, 0);
	for (int i = 0; i < SLOTS; i += STRIDE)
		assert(t.slot[i] == 2);
	return 0;
}
