/*
 * ptykill.c — a program killed while a thread reads its terminal leaves
 * the terminal's file status flags as they were.
 *
 *   ptykill DRIVEN   run as the green program under test: a thread reads
 *                    stdin (the pty) with fgets, main says "ready" on
 *                    stdout and waits forever
 *   ptykill PROGRAM  the driver: make a pty, run "PROGRAM DRIVEN" on it
 *                    (PROGRAM is ptykill-green, possibly preceded by an
 *                    emulator and its options: tests/prog/io.sh), SIGKILL it
 *                    once ready, compare the flags
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

static void *read_tty(void *arg)
{
	char line[64];
	(void)arg;
	fgets(line, sizeof line, stdin);
	return 0;
}

static int driven(void)
{
	pthread_t t;
	pthread_create(&t, 0, read_tty, 0);
	for (int i = 0; i < 3; i++) sched_yield();   /* green: the reader parks */
	write(1, "ready\n", 6);
	for (;;) pause();
}

int main(int argc, char **argv)
{
	int m, s, out[2], before, after;
	char *cmd[16], buf[8];
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "DRIVEN")) return driven();
	if (argc < 2 || argc > 14) return 2;
	for (int i = 1; i < argc; i++) cmd[i - 1] = argv[i];
	cmd[argc - 1] = "DRIVEN";
	cmd[argc] = 0;
	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) || unlockpt(m)) return 2;
	s = open(ptsname(m), O_RDWR | O_NOCTTY);
	if (s < 0 || pipe(out)) return 2;
	before = fcntl(s, F_GETFL);
	if (!(pid = fork())) {
		dup2(s, 0);
		dup2(out[1], 1);
		execvp(cmd[0], cmd);
		_exit(127);
	}
	close(out[1]);
	if (read(out[0], buf, 6) != 6) return 3;
	kill(pid, SIGKILL);
	waitpid(pid, 0, 0);
	after = fcntl(s, F_GETFL);
	if (before != after) {
		printf("flags changed: %#x -> %#x\n", before, after);
		return 1;
	}
	printf("flags unchanged\n");
	return 0;
}
