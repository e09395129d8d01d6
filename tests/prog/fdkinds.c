/*
 * fdkinds.c — which descriptor kinds honour per-call non-blocking I/O on
 * the running kernel: the table in docs/io.md.  Prints one row per kind:
 * what preadv2/pwritev2 with RWF_NOWAIT, recv/send with MSG_DONTWAIT and
 * select() say on an empty (read) and a full (write) descriptor.  A call
 * that would block the process is cut short by an alarm ("blocks").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <netinet/in.h>
#include <sys/utsname.h>
#include <sys/syscall.h>

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 8
#endif

static char big[1 << 16];
static void on_alarm(int s) { (void)s; }

static const char *res(long r)
{
	static char b[32];
	if (r >= 0) { snprintf(b, sizeof b, "%ld bytes", r); return b; }
	if (errno == EINTR) return "blocks";
	return strerror(errno) ;
}

static const char *timed(long (*f)(int), int fd)
{
	long r;
	alarm(1);
	r = f(fd);
	alarm(0);
	return res(r);
}

static long rd_nowait(int fd)
{
	struct iovec v = { big, 16 };
	return syscall(SYS_preadv2, fd, &v, 1, -1L, 0L, RWF_NOWAIT);
}
static long wr_nowait(int fd)
{
	struct iovec v = { big, sizeof big };
	return syscall(SYS_pwritev2, fd, &v, 1, -1L, 0L, RWF_NOWAIT);
}
static long rd_dontwait(int fd) { return recv(fd, big, 16, MSG_DONTWAIT); }
static long wr_dontwait(int fd) { return send(fd, big, sizeof big, MSG_DONTWAIT); }

static const char *sel(int fd, int wr)
{
	fd_set s;
	struct timeval tv = { 0, 0 };
	FD_ZERO(&s);
	FD_SET(fd, &s);
	return select(fd + 1, wr ? 0 : &s, wr ? &s : 0, 0, &tv) > 0 ? "ready" : "not ready";
}

/* fill a write end until it would block (by poll), never blocking */
static void fill(int fd)
{
	fd_set s;
	struct timeval tv;
	for (int i = 0; i < 256; i++) {   /* /dev/null is never full */
		FD_ZERO(&s); FD_SET(fd, &s); tv = (struct timeval){ 0, 0 };
		if (select(fd + 1, 0, &s, 0, &tv) <= 0) return;
		int fl = fcntl(fd, F_GETFL);
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);   /* our own descriptor */
		long r = write(fd, big, sizeof big);
		fcntl(fd, F_SETFL, fl);
		if (r <= 0) return;
	}
}

static void row(const char *kind, int rfd, int wfd)
{
	printf("| %s | %s | %s | %s | ", kind, timed(rd_nowait, rfd), timed(rd_dontwait, rfd),
	       sel(rfd, 0));
	if (wfd >= 0) {
		fill(wfd);
		printf("%s | %s | %s |\n", timed(wr_nowait, wfd), timed(wr_dontwait, wfd), sel(wfd, 1));
	} else {
		printf("- | - | - |\n");
	}
}

int main(void)
{
	int p[2], s[2], m, fd;
	char path[] = "/tmp/green-fdkinds-XXXXXX", fifo[64];
	struct utsname u;
	struct sigaction sa = { .sa_handler = on_alarm };

	sigaction(SIGALRM, &sa, 0);
	uname(&u);
	printf("kernel %s\n\n", u.release);
	printf("| kind | read RWF_NOWAIT (empty) | recv MSG_DONTWAIT (empty) | select read "
	       "| write RWF_NOWAIT (full) | send MSG_DONTWAIT (full) | select write |\n");
	printf("|---|---|---|---|---|---|---|\n");
	pipe(p);
	row("pipe", p[0], p[1]);
	socketpair(AF_UNIX, SOCK_STREAM, 0, s);
	row("unix stream socket", s[0], s[1]);
	socketpair(AF_UNIX, SOCK_DGRAM, 0, s);
	row("unix datagram socket", s[0], -1);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	row("udp socket", fd, -1);
	snprintf(fifo, sizeof fifo, "/tmp/green-fdkinds-fifo-%d", getpid());
	mkfifo(fifo, 0600);
	int fr = open(fifo, O_RDONLY | O_NONBLOCK), fw = open(fifo, O_WRONLY);
	fcntl(fr, F_SETFL, 0);
	row("FIFO", fr, fw);
	unlink(fifo);
	m = posix_openpt(O_RDWR | O_NOCTTY);
	grantpt(m); unlockpt(m);
	fd = open(ptsname(m), O_RDWR | O_NOCTTY);
	row("pty master", m, -1);
	row("pty slave", fd, -1);
	fd = eventfd(0, 0);
	row("eventfd", fd, -1);
	fd = mkstemp(path);
	unlink(path);
	row("regular file (at EOF)", fd, -1);
	fd = open("/dev/null", O_RDWR);
	row("/dev/null", fd, fd);
	return 0;
}
