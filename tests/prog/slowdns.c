/*
 * slowdns.c — getaddrinfo against a slow DNS server parks only its
 * caller.  Run where /etc/resolv.conf says "nameserver 127.0.0.1" and
 * UDP port 53 there is free (tests/prog/io.sh: a private network and mount
 * namespace).  A thread of this program is the server: it answers each
 * query for an A record with 10.1.2.3 after sleeping 200 ms.  Another
 * thread resolves; the main thread computes meanwhile.  Had the resolver
 * blocked the one kernel thread the server could never answer.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int srv;
static volatile int resolved;

static void *server(void *arg)
{
	unsigned char q[512], a[600];
	struct sockaddr_in from;
	socklen_t fl;
	(void)arg;
	for (;;) {
		fl = sizeof from;
		ssize_t n = recvfrom(srv, q, sizeof q, 0, (void *)&from, &fl);
		if (n < 12) continue;
		nanosleep(&(struct timespec){ 0, 200000000 }, 0);
		memcpy(a, q, n);
		a[2] = 0x81; a[3] = 0x80;          /* response, recursion available */
		a[6] = 0; a[7] = (q[n - 3] == 1);  /* one answer for type A */
		a[8] = a[9] = a[10] = a[11] = 0;
		size_t k = n;
		if (a[7]) {
			static const unsigned char rr[] = { 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 10, 1, 2, 3 };
			memcpy(a + k, rr, sizeof rr);
			k += sizeof rr;
		}
		sendto(srv, a, k, 0, (void *)&from, fl);
	}
	return 0;
}

static void *resolver(void *arg)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *res;
	char ip[32] = "?";
	int r = getaddrinfo("slow.example", "80", &hints, &res);
	(void)arg;
	if (!r) {
		inet_ntop(AF_INET, &((struct sockaddr_in *)res->ai_addr)->sin_addr, ip, sizeof ip);
		freeaddrinfo(res);
	}
	printf("resolved %s\n", r ? gai_strerror(r) : ip);
	resolved = 1;
	return 0;
}

int main(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(53),
	                          .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	pthread_t s, r;
	volatile unsigned long x = 0;
	unsigned long rounds = 0;

	srv = socket(AF_INET, SOCK_DGRAM, 0);
	if (srv < 0 || bind(srv, (void *)&sa, sizeof sa)) {
		perror("bind 127.0.0.1:53");
		return 77;
	}
	pthread_create(&s, 0, server, 0);
	pthread_create(&r, 0, resolver, 0);
	while (!resolved) {   /* compute, offering the CPU between rounds */
		for (int i = 0; i < 100000; i++) x += i;
		rounds++;
		sched_yield();
	}
	pthread_join(r, 0);
	printf("computed meanwhile: %s\n", rounds > 1 ? "yes" : "no");
	return 0;
}
