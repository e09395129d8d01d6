/* first-touch — the textbook lost update on memory nobody shared yet:
 * two threads each read a global counter that main never touched and
 * write it back plus one.  A switch between one thread's load and its
 * store loses the other's increment.  With memory points, both accesses
 * of the first thread fall on a page no other thread has touched, so
 * only the point after a first touch (src/mempoints/shared.c) lets the
 * second thread in between. */
#include <assert.h>
#include <pthread.h>

static int x;

static void *increment(void *arg)
{
	int v = x;
	x = v + 1;
	return arg;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, increment, 0);
	pthread_create(&b, 0, increment, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(x == 2);
	return 0;
}
