/* four-preempt — a bug that needs four preemptions, each in a window of
 * one step amid long private work.  The writer stores 1, 2 and 3 in a
 * row; the reader loads the value three times in a row; each first does
 * work of its own (a hash computed in registers).  The reader sees
 * 1, 2, 3 only if the writer is preempted right after its first store,
 * the reader right after its first load, the writer after its second
 * store and the reader after its second load.  A random walk must make
 * four unlikely switches at the right moments after aligning the two
 * threads' work; PCT of depth 3 has two change points, and more depth
 * costs a factor of the run's length per change point. */
#include <assert.h>
#include <pthread.h>

#define WORK 200

static volatile int x;
static int seen[3];

/* private work: a hash computed in registers, a block point per round */
static unsigned work(unsigned h)
{
	for (int i = 0; i < WORK; i++)
		h = (h ^ (unsigned)i) * 16777619u + (h >> 7);
	return h;
}

static void *writer(void *arg)
{
	unsigned h = work(1);
	x = 1;
	x = 2;
	x = 3;
	return (void *)(unsigned long)(h | work(h));
}

static void *reader(void *arg)
{
	unsigned h = work(2);
	seen[0] = x;
	seen[1] = x;
	seen[2] = x;
	return (void *)(unsigned long)(h | work(h));
}

int main(void)
{
	pthread_t w, r;
	pthread_create(&w, 0, writer, 0);
	pthread_create(&r, 0, reader, 0);
	pthread_join(w, 0);
	pthread_join(r, 0);
	assert(!(seen[0] == 1 && seen[1] == 2 && seen[2] == 3));
	return 0;
}
