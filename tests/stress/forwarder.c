/*
 * forwarder.c — the shape of a test harness's "run with a time limit"
 * wrapper (tests/stress/forward.sh): fork, exec the command in the
 * child, forward SIGINT and SIGTERM to it, and when the time is up send
 * it SIGTERM, then SIGKILL a second later; exit with its status.  Its
 * promise is that the child is gone when it exits.
 *
 *   forwarder SECONDS PIDFILE COMMAND [ARG...]
 *
 * Writes the child's pid to PIDFILE.  Exit status: the child's, or 128
 * plus the signal that killed it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile pid_t child;
static volatile sig_atomic_t timed_out;

static void forward(int s)
{
	if (s == SIGALRM) {
		timed_out++;
		s = timed_out > 1 ? SIGKILL : SIGTERM;
		alarm(1);
	}
	if (child > 0) kill(child, s);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = forward };
	int st;
	FILE *f;
	pid_t r;

	if (argc < 4) {
		fprintf(stderr, "usage: forwarder SECONDS PIDFILE COMMAND [ARG...]\n");
		return 2;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, 0);
	sigaction(SIGTERM, &sa, 0);
	sigaction(SIGALRM, &sa, 0);
	child = fork();
	if (child < 0) return 2;
	if (child == 0) {
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	if ((f = fopen(argv[2], "w"))) {
		fprintf(f, "%d\n", (int)child);
		fclose(f);
	}
	alarm(atoi(argv[1]));
	while ((r = waitpid(child, &st, 0)) < 0 && errno == EINTR)
		;
	if (r < 0) return 2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
