/* atomicity — check-then-act across two critical sections.  Each thread
 * checks the balance under the lock, releases it, and withdraws under the
 * lock again: another withdrawal in between overdraws the account. */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int balance = 100;

static void *withdraw(void *arg)
{
	int amount = 60, ok;
	pthread_mutex_lock(&m);
	ok = balance >= amount;                  /* check */
	pthread_mutex_unlock(&m);
	if (ok) {
		pthread_mutex_lock(&m);
		balance -= amount;               /* act: the check may be stale */
		pthread_mutex_unlock(&m);
	}
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, withdraw, 0);
	pthread_create(&b, 0, withdraw, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(balance >= 0);
	return 0;
}
