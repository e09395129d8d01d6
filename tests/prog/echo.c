/*
 * echo.c — a thread-per-connection TCP echo server on 127.0.0.1 and
 * thread-per-connection clients, every byte checked.
 *
 *   echo [inproc|fork] [connections] [messages]
 *
 * inproc: clients and server in this process; fork: the clients in a
 * child process.  Prints "echo ok" when every message came back intact;
 * the round trips per second go to stderr.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#define MSG 32

static int nconn = 500, nmsg = 1000;
static struct sockaddr_in addr;
static int failures;

static void fill(unsigned char *b, int conn, int i)
{
	for (int j = 0; j < MSG; j++) b[j] = (unsigned char)(conn * 131 + i * 7 + j);
}

static int full(int fd, unsigned char *b, int out)
{
	for (int done = 0, n; done < MSG; done += n) {
		n = out ? write(fd, b + done, MSG - done) : read(fd, b + done, MSG - done);
		if (n <= 0) return -1;
	}
	return 0;
}

static void *serve(void *arg)
{
	int fd = (int)(long)arg;
	unsigned char b[MSG];
	while (!full(fd, b, 0) && !full(fd, b, 1))
		;
	close(fd);
	return 0;
}

static void *client(void *arg)
{
	int conn = (int)(long)arg, fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
	unsigned char out[MSG], in[MSG];

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (fd < 0 || connect(fd, (void *)&addr, sizeof addr)) {
		perror("connect");
		__atomic_add_fetch(&failures, 1, __ATOMIC_SEQ_CST);
		return 0;
	}
	for (int i = 0; i < nmsg; i++) {
		fill(out, conn, i);
		if (full(fd, out, 1) || full(fd, in, 0) || memcmp(in, out, MSG)) {
			fprintf(stderr, "connection %d message %d: wrong echo\n", conn, i);
			__atomic_add_fetch(&failures, 1, __ATOMIC_SEQ_CST);
			break;
		}
	}
	close(fd);
	return 0;
}

static pthread_attr_t small;

static void spawn(pthread_t *t, void *(*fn)(void *), long arg)
{
	if (pthread_create(t, &small, fn, (void *)arg)) {
		perror("pthread_create");
		exit(2);
	}
}

static void *server(void *arg)
{
	int ls = (int)(long)arg;
	pthread_t *t = calloc(nconn, sizeof *t);
	for (int i = 0; i < nconn; i++) {
		int fd = accept(ls, 0, 0), one = 1;
		if (fd < 0) {
			perror("accept");
			exit(2);
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		spawn(&t[i], serve, fd);
	}
	for (int i = 0; i < nconn; i++) pthread_join(t[i], 0);
	free(t);
	return 0;
}

static int clients(void)
{
	pthread_t *t = calloc(nconn, sizeof *t);
	for (int i = 0; i < nconn; i++) spawn(&t[i], client, i);
	for (int i = 0; i < nconn; i++) pthread_join(t[i], 0);
	free(t);
	return failures;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int fork_mode = argc > 1 && !strcmp(argv[1], "fork"), ls, st;
	socklen_t len = sizeof addr;
	struct rlimit rl;
	pthread_t srv;
	double t0;
	pid_t pid = 0;

	if (argc > 2) nconn = atoi(argv[2]);
	if (argc > 3) nmsg = atoi(argv[3]);
	getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur < (rlim_t)2 * nconn + 64 && rl.rlim_max > rl.rlim_cur) {
		rl.rlim_cur = rl.rlim_max < (rlim_t)2 * nconn + 64 ? rl.rlim_max : (rlim_t)2 * nconn + 64;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	pthread_attr_init(&small);
	pthread_attr_setstacksize(&small, 64 * 1024);

	ls = socket(AF_INET, SOCK_STREAM, 0);
	addr = (struct sockaddr_in){ .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (ls < 0 || bind(ls, (void *)&addr, sizeof addr) || listen(ls, 4096) ||
	    getsockname(ls, (void *)&addr, &len)) {
		perror("listen");
		return 2;
	}
	t0 = now();
	if (fork_mode && !(pid = fork())) {
		close(ls);
		_exit(clients() ? 1 : 0);
	}
	spawn(&srv, server, ls);
	if (!fork_mode && clients()) return 1;
	pthread_join(srv, 0);
	if (fork_mode && (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)))
		return 1;
	fprintf(stderr, "%d connections x %d messages: %.0f round trips/s\n", nconn, nmsg,
	        (double)nconn * nmsg / (now() - t0));
	printf("echo ok\n");
	return 0;
}
