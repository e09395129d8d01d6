/* segv-sigthread — a crash in a program with a signal-handling thread of
 * its own, as servers and downloaders have: main blocks every signal
 * before it starts threads, and one thread takes SIGINT, SIGTERM and
 * SIGHUP with sigwait.  A worker uses the current job without checking
 * that the dispatcher has set it yet: a NULL dereference, SIGSEGV.
 *
 * The fault must still end in green's report with the schedule hash: the
 * blocked SIGSEGV (blocked only as far as the program can tell: a fault
 * cannot be blocked) and the signal thread must not take it over. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

struct job { const char *url; int tries; };
static struct job *current;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *signals(void *arg)
{
	sigset_t *set = arg;
	int s;
	for (;;) {
		if (sigwait(set, &s) == 0 && s != SIGHUP) exit(1);
	}
}

static void *dispatcher(void *arg)
{
	static struct job j = { "http://example.invalid/", 0 };
	pthread_mutex_lock(&lock);
	current = &j;
	pthread_mutex_unlock(&lock);
	return arg;
}

static void *fetcher(void *arg)
{
	struct job *j;
	pthread_mutex_lock(&lock);
	j = current;
	pthread_mutex_unlock(&lock);
	j->tries++;                       /* NULL if the dispatcher is late */
	return arg;
}

int main(void)
{
	pthread_t sig, d, f;
	sigset_t all, wanted;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, 0);
	sigemptyset(&wanted);
	sigaddset(&wanted, SIGINT);
	sigaddset(&wanted, SIGTERM);
	sigaddset(&wanted, SIGHUP);
	pthread_create(&sig, 0, signals, &wanted);
	pthread_create(&d, 0, dispatcher, 0);
	pthread_create(&f, 0, fetcher, 0);
	pthread_join(d, 0);
	pthread_join(f, 0);
	return 0;
}
