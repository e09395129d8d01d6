/*
 * cores.c — one server on every core: N server processes, each a
 * thread-per-connection server, sharing one TCP port, driven by one
 * client (docs/servers.md, "On every core").
 *
 *   cores reuseport|fork SERVERS CONNECTIONS
 *
 * reuseport: each server process makes its own socket with SO_REUSEPORT,
 * binds the port and listens; the kernel spreads the connections.
 * fork: this process listens once and forks the servers, which all
 * accept from the one inherited socket: every connection wakes every
 * server waiting for it, and all but one find the queue empty again.
 *
 * The client (this process) first opens connections, a request on
 * each, until every server holds one: a server answers nothing until it
 * is told that all hold one (through its control socket), and says on
 * it each request it holds.  After fork, a server that holds one accepts
 * no more until then, so the next connection goes to another: every
 * server served some, whatever the kernel's choice.  Then CONNECTIONS connections more, one at a time: after each
 * is opened, a request on every connection open so far, every answer
 * read and checked (it names the server that sent it, which must be the
 * one that answered before on that connection).  A server whose kernel
 * thread slept in accept() while another process took the connection
 * would answer none of its connections from then on: the client waits
 * forever (the script's timeout).  Then the connections are closed and
 * each server is sent SIGTERM: its signal thread closes the listening
 * socket, which ends its acceptor's accept() with EBADF; the server waits
 * for its connections' threads, reports what it served on its control
 * socket and returns from main.  The client checks each report against
 * its own counts and each exit status.
 *
 * Prints "cores ok: N servers, C connections, R requests" and each
 * server's share, or what went wrong; the server pids, one per line as
 * "pid PID", go to stderr so the script can check that none is left.
 * Green mode only: in 1:1 mode close() does not end an accept() in
 * another thread.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#define MAXSERV 8
#define MAXCONN 2048

/* a request: its number; an answer: the number and the server's index */
struct msg { unsigned id, who; };

static void die(const char *what)
{
	fprintf(stderr, "cores: %s: %s\n", what, strerror(errno));
	exit(2);
}

static int full(int fd, void *b, size_t n, int out)
{
	for (size_t done = 0; done < n;) {
		ssize_t r = out ? write(fd, (char *)b + done, n - done) : read(fd, (char *)b + done, n - done);
		if (r < 0 && errno == EINTR) continue;
		if (r <= 0) return -1;
		done += r;
	}
	return 0;
}

/* ---- a server process */

static int me, lfd, ctl, one_first;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int released, live, stopping;
static unsigned long accepted, served;

static void *connection(void *arg)
{
	int fd = (int)(long)arg;
	struct msg m;

	while (!full(fd, &m, sizeof m, 0)) {
		pthread_mutex_lock(&mu);
		if (!released && write(ctl, "H", 1) != 1) die("write H");   /* held */
		while (!released) pthread_cond_wait(&cv, &mu);
		served++;
		pthread_mutex_unlock(&mu);
		m.who = me;
		if (full(fd, &m, sizeof m, 1)) break;
	}
	close(fd);
	pthread_mutex_lock(&mu);
	live--;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	return 0;
}

/* the control socket: "R" when every server holds a request */
static void *control(void *arg)
{
	char c;
	if (read(ctl, &c, 1) != 1 || c != 'R') die("read R");
	pthread_mutex_lock(&mu);
	released = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	return 0;
}

/* graceful stop: SIGTERM closes the listening socket */
static void *stopper(void *arg)
{
	sigset_t *set = arg;
	int sig;
	if (sigwait(set, &sig)) die("sigwait");
	pthread_mutex_lock(&mu);
	stopping = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	close(lfd);
	return 0;
}

static int server(int index, int fd, int port, int c)
{
	pthread_t ctl_t, stop_t, t;
	pthread_attr_t detached;
	sigset_t set;
	char report[64];

	me = index, ctl = c, lfd = fd, one_first = fd >= 0;
	if (lfd < 0) {   /* SO_REUSEPORT: a socket of its own */
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
		                         .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		int one = 1;
		if ((lfd = socket(AF_INET, SOCK_STREAM, 0)) < 0) die("socket");
		if (setsockopt(lfd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one)) die("SO_REUSEPORT");
		if (bind(lfd, (void *)&a, sizeof a)) die("bind");
		if (listen(lfd, 1024)) die("listen");
	}
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, 0);
	if (write(ctl, "L", 1) != 1) die("write L");
	pthread_attr_init(&detached);
	pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&ctl_t, 0, control, 0) || pthread_create(&stop_t, 0, stopper, &set))
		die("pthread_create");
	for (;;) {
		int cfd;
		pthread_mutex_lock(&mu);   /* fork: one connection before the release */
		while (one_first && !released && accepted && !stopping) pthread_cond_wait(&cv, &mu);
		pthread_mutex_unlock(&mu);
		if ((cfd = accept(lfd, 0, 0)) < 0) {
			if (errno == EINTR || errno == ECONNABORTED) continue;
			if (errno == EBADF) break;   /* the stopper closed it */
			die("accept");
		}
		pthread_mutex_lock(&mu);
		accepted++, live++;
		pthread_mutex_unlock(&mu);
		if (pthread_create(&t, &detached, connection, (void *)(long)cfd)) die("pthread_create");
	}
	pthread_join(stop_t, 0);
	pthread_join(ctl_t, 0);
	pthread_mutex_lock(&mu);
	while (live) pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	snprintf(report, sizeof report, "S %lu %lu\n", accepted, served);
	if (write(ctl, report, strlen(report)) < 0) die("write S");
	return 0;
}

/* ---- the client */

static int nserv, conns[MAXCONN], owner[MAXCONN], nconns;
static struct sockaddr_in addr;
static unsigned next_id;
static unsigned long answers[MAXSERV];

static int open_one(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
	if (fd < 0) die("socket");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (connect(fd, (void *)&addr, sizeof addr)) die("connect");
	if (nconns == MAXCONN) { fprintf(stderr, "cores: too many connections\n"); exit(2); }
	owner[nconns] = -1;
	conns[nconns] = fd;
	return nconns++;
}

static void ask(int i)
{
	struct msg m = { ++next_id, 0 };
	if (full(conns[i], &m, sizeof m, 1)) die("write request");
}

/* the answer on connection i: from the server that answered before */
static void answer(int i)
{
	struct msg m;
	if (full(conns[i], &m, sizeof m, 0)) {
		fprintf(stderr, "cores: connection %d: no answer\n", i);
		exit(1);
	}
	if (m.who >= (unsigned)nserv || (owner[i] >= 0 && owner[i] != (int)m.who)) {
		fprintf(stderr, "cores: connection %d: answer from server %u, want %d\n", i, m.who, owner[i]);
		exit(1);
	}
	owner[i] = m.who;
	answers[m.who]++;
}

/* read one byte from every control socket: want it to be c */
static void gather(int *ctl, char c, int *seen)
{
	struct pollfd p[MAXSERV];
	int left = 0;
	for (int k = 0; k < nserv; k++) {
		p[k] = (struct pollfd){ seen[k] ? -1 : ctl[k], POLLIN, 0 };
		left += !seen[k];
	}
	while (left) {
		if (poll(p, nserv, -1) < 0) {
			if (errno == EINTR) continue;
			die("poll");
		}
		for (int k = 0; k < nserv; k++) {
			char b;
			if (p[k].fd < 0 || !p[k].revents) continue;
			if (read(ctl[k], &b, 1) != 1 || b != c) {
				fprintf(stderr, "cores: server %d: want '%c' on its control socket\n", k, c);
				exit(1);
			}
			seen[k] = 1, left--, p[k].fd = -1;
		}
	}
}

/* the next 'H' on a control socket: the server that holds a request */
static int report(int *ctl)
{
	struct pollfd p[MAXSERV];
	for (int k = 0; k < nserv; k++) p[k] = (struct pollfd){ ctl[k], POLLIN, 0 };
	for (;;) {
		if (poll(p, nserv, -1) < 0) {
			if (errno == EINTR) continue;
			die("poll");
		}
		for (int k = 0; k < nserv; k++) {
			char b;
			if (!p[k].revents) continue;
			if (read(ctl[k], &b, 1) != 1 || b != 'H') {
				fprintf(stderr, "cores: server %d: want 'H' on its control socket\n", k);
				exit(1);
			}
			return k;
		}
	}
}

int main(int argc, char **argv)
{
	int fork_mode, more, lfd = -1, ctl[MAXSERV], ready[MAXSERV] = { 0 }, held[MAXSERV] = { 0 }, holding = 0;
	pid_t pid[MAXSERV];
	socklen_t al = sizeof addr;
	unsigned long total = 0;
	int bad = 0;

	if (argc != 4 || (strcmp(argv[1], "reuseport") && strcmp(argv[1], "fork")) ||
	    (nserv = atoi(argv[2])) < 1 || nserv > MAXSERV || (more = atoi(argv[3])) < 0 || more > MAXCONN / 2) {
		fprintf(stderr, "usage: cores reuseport|fork SERVERS(1-%d) CONNECTIONS(0-%d)\n", MAXSERV, MAXCONN / 2);
		return 2;
	}
	fork_mode = !strcmp(argv[1], "fork");
	signal(SIGPIPE, SIG_IGN);

	/* the port: the listening socket (fork), or a bound socket in the
	 * SO_REUSEPORT group that never listens, kept until the servers do */
	addr = (struct sockaddr_in){ .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if ((lfd = socket(AF_INET, SOCK_STREAM, 0)) < 0) die("socket");
	if (!fork_mode && setsockopt(lfd, SOL_SOCKET, SO_REUSEPORT, &(int){ 1 }, sizeof(int))) die("SO_REUSEPORT");
	if (bind(lfd, (void *)&addr, sizeof addr) || getsockname(lfd, (void *)&addr, &al)) die("bind");
	if (fork_mode && listen(lfd, 1024)) die("listen");

	for (int k = 0; k < nserv; k++) {
		int sv[2];
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) die("socketpair");
		fflush(0);
		if ((pid[k] = fork()) < 0) die("fork");
		if (!pid[k]) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);   /* the client killed: so are we */
			if (getppid() == 1) _exit(3);
			close(sv[0]);
			for (int j = 0; j < k; j++) close(ctl[j]);
			if (!fork_mode) close(lfd);
			return server(k, fork_mode ? lfd : -1, ntohs(addr.sin_port), sv[1]);
		}
		close(sv[1]);
		ctl[k] = sv[0];
		fprintf(stderr, "pid %d\n", (int)pid[k]);
	}
	gather(ctl, 'L', ready);   /* every server listens */
	close(lfd);

	/* until every server holds a request: one connection at a time, a
	 * request on each, and which server holds it (with SO_REUSEPORT, as
	 * many as the kernel's spreading takes; fork: one per server, since
	 * one that holds a request accepts no more) */
	while (holding < nserv) {
		int k;
		if (nconns == MAXCONN / 2) {
			fprintf(stderr, "cores: %d connections, and not every server has one\n", nconns);
			return 1;
		}
		ask(open_one());
		k = report(ctl);
		holding += !held[k];
		held[k] = 1;
	}
	for (int k = 0; k < nserv; k++)
		if (write(ctl[k], "R", 1) != 1) die("write R");
	for (int i = 0; i < nconns; i++) answer(i);

	/* more connections, one at a time, each followed by a request on
	 * every connection open */
	for (int n = 0; n < more; n++) {
		open_one();
		for (int i = 0; i < nconns; i++) ask(i);
		for (int i = 0; i < nconns; i++) answer(i);
	}
	for (int i = 0; i < nconns; i++) close(conns[i]);

	/* graceful stop: SIGTERM; each reports, then exits 0 */
	for (int k = 0; k < nserv; k++) kill(pid[k], SIGTERM);
	for (int k = 0; k < nserv; k++) {
		char rep[64] = { 0 };
		unsigned long acc = 0, srv = 0;
		int st, got = 0;
		for (ssize_t r; got < (int)sizeof rep - 1 && (r = read(ctl[k], rep + got, sizeof rep - 1 - got)) > 0;)
			got += r;
		if (waitpid(pid[k], &st, 0) != pid[k]) die("waitpid");
		if (sscanf(rep, "S %lu %lu", &acc, &srv) != 2 || !WIFEXITED(st) || WEXITSTATUS(st)) {
			printf("server %d: report '%.*s', exit status %d\n", k, (int)strcspn(rep, "\n"), rep,
			       WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
			bad = 1;
			continue;
		}
		if (srv != answers[k] || !srv || !acc) {
			printf("server %d: served %lu requests on %lu connections; the client had %lu answers from it\n",
			       k, srv, acc, answers[k]);
			bad = 1;
		}
		total += srv;
		fprintf(stderr, "server %d: %lu connections, %lu requests\n", k, acc, srv);
	}
	if (bad) return 1;
	if (total != next_id) {
		printf("%lu requests served of %u\n", total, next_id);
		return 1;
	}
	printf("cores ok: %d servers, %s\n", nserv, fork_mode ? "fork after listen" : "SO_REUSEPORT");
	fprintf(stderr, "%d connections, %u requests\n", nconns, next_id);
	return 0;
}
