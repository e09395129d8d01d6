/*
 * echo-epoll.c — the work of bench/echo.c done by one hand-written
 * level-triggered epoll event loop on one thread: the yardstick for
 * thread-per-connection on green.
 *
 *   echo-epoll [connections] [messages]
 *
 * The same sockets (TCP on 127.0.0.1, TCP_NODELAY on both sides), the
 * same 32-byte messages and checks: each client sends a message, the
 * server side echoes it, the client compares it and sends the next.
 * Every descriptor is non-blocking and registered once for EPOLLIN; a
 * short write, which never happens on loopback at this size, is an
 * error.  Prints "echo ok", and the round trips per second on stderr,
 * as echo.c does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>

#define MSG 32

struct conn {
	int fd, client, id, sent, got, have;   /* have: bytes of the message so far */
	unsigned char buf[MSG];
};

static int nconn = 500, nmsg = 1000;

static void fill(unsigned char *b, int conn, int i)
{
	for (int j = 0; j < MSG; j++) b[j] = (unsigned char)(conn * 131 + i * 7 + j);
}

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void send_msg(struct conn *c, const unsigned char *b)
{
	if (write(c->fd, b, MSG) != MSG) die("write");
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof addr;
	struct epoll_event ev[256];
	struct rlimit rl;
	struct conn *c;
	int ls, ep, one = 1, done = 0;
	double t0;

	if (argc > 1) nconn = atoi(argv[1]);
	if (argc > 2) nmsg = atoi(argv[2]);
	getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur < (rlim_t)2 * nconn + 64 && rl.rlim_max > rl.rlim_cur) {
		rl.rlim_cur = rl.rlim_max < (rlim_t)2 * nconn + 64 ? rl.rlim_max : (rlim_t)2 * nconn + 64;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	c = calloc(2 * nconn, sizeof *c);
	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0 || bind(ls, (void *)&addr, sizeof addr) || listen(ls, 4096) ||
	    getsockname(ls, (void *)&addr, &len))
		die("listen");
	if ((ep = epoll_create1(EPOLL_CLOEXEC)) < 0) die("epoll_create1");
	t0 = now();
	/* connect every client, accept every server side */
	for (int i = 0; i < nconn; i++) {
		struct conn *cl = &c[2 * i], *sv = &c[2 * i + 1];
		cl->fd = socket(AF_INET, SOCK_STREAM, 0);
		if (cl->fd < 0 || connect(cl->fd, (void *)&addr, sizeof addr)) die("connect");
		if ((sv->fd = accept(ls, 0, 0)) < 0) die("accept");
		cl->client = 1;
		cl->id = sv->id = i;
		for (int k = 0; k < 2; k++) {
			struct conn *x = k ? sv : cl;
			struct epoll_event e = { .events = EPOLLIN, .data.ptr = x };
			setsockopt(x->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
			fcntl(x->fd, F_SETFL, fcntl(x->fd, F_GETFL) | O_NONBLOCK);
			if (epoll_ctl(ep, EPOLL_CTL_ADD, x->fd, &e)) die("epoll_ctl");
		}
	}
	for (int i = 0; i < nconn; i++) {
		fill(c[2 * i].buf, i, 0);
		send_msg(&c[2 * i], c[2 * i].buf);
	}
	while (done < nconn) {
		int n = epoll_wait(ep, ev, sizeof ev / sizeof *ev, -1);
		if (n < 0 && errno != EINTR) die("epoll_wait");
		for (int k = 0; k < n; k++) {
			struct conn *x = ev[k].data.ptr;
			unsigned char in[MSG], want[MSG];
			ssize_t r = read(x->fd, in + 0, MSG - x->have);
			if (r < 0 && errno == EAGAIN) continue;
			if (r <= 0) die("read");
			memcpy(x->buf + x->have, in, r);
			if ((x->have += r) < MSG) continue;
			x->have = 0;
			if (!x->client) {
				send_msg(x, x->buf);
				continue;
			}
			fill(want, x->id, x->got);
			if (memcmp(want, x->buf, MSG)) {
				fprintf(stderr, "connection %d message %d: wrong echo\n", x->id, x->got);
				return 1;
			}
			if (++x->got == nmsg) {
				done++;
				continue;
			}
			fill(want, x->id, x->got);
			send_msg(x, want);
		}
	}
	fprintf(stderr, "%d connections x %d messages: %.0f round trips/s\n", nconn, nmsg,
	        (double)nconn * nmsg / (now() - t0));
	printf("echo ok\n");
	return 0;
}
