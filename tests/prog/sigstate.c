/*
 * sigstate.c — print the signal state this image started with: the
 * blocked signals, SIGALRM's disposition and the ITIMER_REAL left (in
 * whole seconds, rounded up).  check_signal.c execs it from a thread.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

int main(void)
{
	sigset_t m;
	struct sigaction sa;
	struct itimerval it;

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
