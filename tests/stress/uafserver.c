/*
 * uafserver — a real HTTP server (CivetWeb, Debian's source, built by
 * tests/stress/record-crash.sh) with a use-after-free planted in its one
 * handler, for green-record to catch (docs/record.md).
 *
 * GET /item answers from a cached item of 256 KiB, which every 64th
 * request replaces.  The bug: the handler takes the item without a
 * reference, renders the page (~1.5 ms of CPU, where time slices end),
 * writes the response head — a system call, where the tick switches to
 * another worker — then copies the body from the item.  If another worker replaced the item meanwhile, the old one is
 * freed, and being above mallocng's mapping threshold it is unmapped: the
 * body's read faults.  Whether it does depends on where the ticks fell
 * among the requests, so it crashes under load, after a while, never the
 * same way twice — unless replayed.
 *
 *   uafserver PORT [THREADS]     serves until SIGTERM (or the crash)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "civetweb.h"

#define ITEM (256 * 1024)

struct item {
	unsigned long version;
	char body[ITEM - sizeof(unsigned long)];
};

static struct item *volatile cache;
static unsigned long served;
static volatile sig_atomic_t stop;

static void refresh(void)
{
	struct item *n = malloc(sizeof *n), *old = cache;
	n->version = old ? old->version + 1 : 1;
	memset(n->body, 'a' + n->version % 26, 1024);
	cache = n;
	free(old);   /* the planted bug: a reader may still hold it */
}

/* The page's own work, ~1.5 ms of CPU: a worker's time slice ends in
 * here now and then, and the tick takes it off the CPU at its next call */
static unsigned long render(const char *uri)
{
	unsigned long h = 5381;
	size_t n = strlen(uri);
	for (int i = 0; i < 700000; i++) h = h * 33 + (unsigned char)uri[i % n];
	return h;
}

static int item(struct mg_connection *c, void *cbdata)
{
	char head[160], page[1024];
	struct item *it;
	int n;
	(void)cbdata;
	if (++served % 64 == 0) refresh();
	it = cache;                                   /* no reference taken */
	n = snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
	             "X-Tag: %lx\r\nContent-Length: %d\r\n\r\n",
	             render(mg_get_request_info(c)->local_uri), (int)sizeof page);
	mg_write(c, head, n);                         /* a point: another worker may run */
	memcpy(page, it->body, sizeof page);          /* use after free */
	mg_write(c, page, sizeof page);
	return 200;
}

static void on_term(int s)
{
	(void)s;
	stop = 1;
}

int main(int argc, char **argv)
{
	const char *opts[] = { "listening_ports", argc > 1 ? argv[1] : "18091",
	                       "num_threads", argc > 2 ? argv[2] : "16",
	                       "enable_keep_alive", "yes", "tcp_nodelay", "1", 0 };
	struct mg_callbacks cb;
	struct mg_context *ctx;

	memset(&cb, 0, sizeof cb);
	signal(SIGTERM, on_term);
	refresh();
	if (!(ctx = mg_start(&cb, 0, opts))) {
		fprintf(stderr, "uafserver: cannot start on port %s\n", opts[1]);
		return 1;
	}
	mg_set_request_handler(ctx, "/item", item, 0);
	while (!stop) sleep(1);
	mg_stop(ctx);
	printf("uafserver: %lu requests, no crash\n", served);
	return 0;
}
