/*
 * sigstate.c — print the signal state this image started with: the
 * blocked signals, SIGALRM's disposition and the ITIMER_REAL left (in
 * whole seconds, rounded up).  check_signal.c execs it from a thread.
 *
 * "sigstate late": raise SIGUSR1 blocked while no other thread exists,
 * then create one and print whether each thread sees it pending (a
 * thread-directed signal is pending for the main thread only).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static void *report_pending(void *arg)
{
	sigset_t p;
	sigpending(&p);
	printf("thread pending %d\n", sigismember(&p, SIGUSR1));
	return 0;
}

static int late(void)
{
	sigset_t m, p;
	pthread_t t;

	sigemptyset(&m);
	sigaddset(&m, SIGUSR1);
	sigprocmask(SIG_BLOCK, &m, 0);
	raise(SIGUSR1);
	if (pthread_create(&t, 0, report_pending, 0) || pthread_join(t, 0)) return 1;
	sigpending(&p);
	printf("main pending %d\n", sigismember(&p, SIGUSR1));
	return 0;
}

int main(int argc, char **argv)
{
	sigset_t m;
	struct sigaction sa;
	struct itimerval it;

	if (argc > 1 && !strcmp(argv[1], "late")) return late();

	sigprocmask(SIG_BLOCK, 0, &m);
	printf("blocked");
	for (int s = 1; s < 65; s++)
		if (sigismember(&m, s) == 1) printf(" %d", s);
	sigaction(SIGALRM, 0, &sa);
	printf("\nalarm %s\n", sa.sa_handler == SIG_DFL ? "default" :
	       sa.sa_handler == SIG_IGN ? "ignored" : "caught");
	getitimer(ITIMER_REAL, &it);
	printf("itimer %ld\n", (long)it.it_value.tv_sec + (it.it_value.tv_usec > 0));
	return 0;
}
