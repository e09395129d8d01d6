/* lock-order — two locks taken in opposite orders: a deadlock when each
 * thread gets its first lock before the other gets its second.  green
 * reports it (every thread blocked on a mutex) and aborts. */
#include <pthread.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
static int moved;

static void *transfer_ab(void *arg)
{
	pthread_mutex_lock(&a);
	pthread_mutex_lock(&b);
	moved++;
	pthread_mutex_unlock(&b);
	pthread_mutex_unlock(&a);
	return 0;
}

static void *transfer_ba(void *arg)
{
	pthread_mutex_lock(&b);
	pthread_mutex_lock(&a);
	moved--;
	pthread_mutex_unlock(&a);
	pthread_mutex_unlock(&b);
	return 0;
}

int main(void)
{
	pthread_t x, y;
	pthread_create(&x, 0, transfer_ab, 0);
	pthread_create(&y, 0, transfer_ba, 0);
	pthread_join(x, 0);
	pthread_join(y, 0);
	return moved;
}
