/*
 * trace.c — the trace file.
 *
 * The launcher (green-record) opens the file on GREEN_TRACE_FD and writes
 * its header: "GREENRR1", a 32-bit length, then the run's command line,
 * environment and directory, which green-replay needs to start the
 * program again the same way.  The library appends the event stream
 * (record.c) in blocks:  'B' raw:u32 packed:u32 bytes  (lz.c).  A block
 * is written when the buffer fills and at the end of the run (exit,
 * a fatal signal, execve).
 *
 * The buffers live in mappings of their own at fixed addresses far from
 * where the program's mappings go, so that recording and replaying do not
 * move any address the program sees (the two runs must make the same
 * mmap calls with the same results).
 */
#ifdef __x86_64__   /* Syscall User Dispatch and this table: x86_64 (record.c) */
#include <string.h>
#include <errno.h>
#include <sys/mman.h>
#include "base/seam.h"
#include "record/record.h"
#include "record/trace.h"

#define BLOCK (1u << 20)
#define WBUF_AT 0x5f0000000000ul       /* record: the block and its packed form */
#define RBUF_AT 0x5f1000000000ul       /* replay: the unpacked block */
#define FILE_AT 0x600000000000ul       /* replay: the whole file */

static unsigned char *buf, *packed;
static size_t used;
static int dead;
static int wfd = GREEN_TRACE_FD;               /* where blocks go: the trace, or a ring's segment */

static void *map_at(unsigned long at, size_t len)
{
	long r = gate(SYS_mmap, at, len, PROT_READ | PROT_WRITE,
	              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE, -1, 0);
	return r == (long)at ? (void *)r : 0;
}

static void msg(const char *s)
{
	gate(SYS_write, 2, (long)s, strlen(s), 0, 0, 0);
}

static int write_all(const void *p, size_t n)
{
	while (n) {
		long r = gate(SYS_write, wfd, (long)p, n, 0, 0, 0);
		if (r == -EINTR) continue;
		if (r <= 0) return -1;
		p = (const char *)p + r;
		n -= r;
	}
	return 0;
}

/* ---- record */

hidden int trace_begin(void)
{
	buf = map_at(WBUF_AT, BLOCK + GREEN_LZ_BOUND(BLOCK) + 16);
	if (!buf) {
		msg("green-record: cannot map the trace buffer\n");
		return -1;
	}
	packed = buf + BLOCK;
	return 0;
}

hidden void trace_flush(void)
{
	uint32_t raw = used, n;
	if (!used || dead) return;
	n = green_lz_pack(buf, used, packed + 9);
	packed[0] = 'B';
	memcpy(packed + 1, &raw, 4);
	memcpy(packed + 5, &n, 4);
	if (write_all(packed, n + 9) < 0) {
		msg("green-record: cannot write the trace: recording stops\n");
		dead = 1;
	}
	used = 0;
}

hidden void trace_put(const void *p, size_t n)
{
	const unsigned char *s = p;
	while (n) {
		size_t k = BLOCK - used < n ? BLOCK - used : n;
		memcpy(buf + used, s, k);
		used += k;
		s += k;
		n -= k;
		if (used == BLOCK) trace_flush();
	}
}

hidden void trace_forget(void)
{
	dead = 1;
}

/* The ring (ring.c): blocks go to fd from now on */
hidden void trace_to(int fd)
{
	trace_flush();
	wfd = fd;
	dead = 0;
}

/* ---- replay */

/* The reader's state lives beside its block, in the mapping at RBUF_AT,
 * not in the library's data: a ring's replay (ring.c) overwrites the
 * library's data with the checkpoint's while it reads the trace. */
struct reader {
	const unsigned char *file, *fp, *fend;   /* the blocks not yet unpacked */
	unsigned char *cur;                       /* the unpacked block */
	size_t clen, cpos;
	uint64_t nread;                           /* event bytes consumed, for messages */
	int gpend;                                /* a signal event read ahead: taken */
	uint64_t gpoint;                          /* when the replay reaches its point */
	siginfo_t ginfo;
};
#define R ((struct reader *)(RBUF_AT + BLOCK))

static int next_block(void)
{
	uint32_t raw, n;
	const unsigned char *fp = R->fp;
	if (R->fend - fp < 9 || fp[0] != 'B') return 0;
	memcpy(&raw, fp + 1, 4);
	memcpy(&n, fp + 5, 4);
	if ((size_t)(R->fend - fp - 9) < n || raw > BLOCK ||
	    green_lz_unpack(fp + 9, n, R->cur, BLOCK) != raw) {
		msg("green-replay: the trace is damaged\n");
		gate(SYS_exit_group, 125, 0, 0, 0, 0, 0);
	}
	R->fp = fp + 9 + n;
	R->clen = raw;
	R->cpos = 0;
	return 1;
}

/* n bytes of the stream (to p, or skipped if p is 0); 0 if it ends first */
hidden int trace_get(void *p, size_t n)
{
	unsigned char *d = p;
	while (n) {
		if (R->cpos == R->clen && !next_block()) return 0;
		size_t k = R->clen - R->cpos < n ? R->clen - R->cpos : n;
		if (d) memcpy(d, R->cur + R->cpos, k);
		if (d) d += k;
		R->cpos += k;
		n -= k;
		R->nread += k;
	}
	return 1;
}
#define get trace_get

hidden int trace_peek(void)
{
	if (R->cpos == R->clen && !next_block()) return -1;
	return R->cur[R->cpos];
}
#define peek trace_peek

static int next_kind(void)
{
	return R->gpend ? 'G' : peek();
}

hidden int trace_load(void)
{
	struct { char pad[48]; long size; char rest[88]; } st;
	uint32_t hl;
	long off = 0;
	unsigned char *f;
	if (gate(SYS_fstat, GREEN_TRACE_FD, (long)&st, 0, 0, 0, 0) < 0 || st.size < 12) {
		msg("green-replay: the trace is empty or unreadable\n");
		return -1;
	}
	f = map_at(FILE_AT, st.size);
	if (!f || !map_at(RBUF_AT, BLOCK + 4096)) {
		msg("green-replay: cannot map the trace\n");
		return -1;
	}
	while (off < st.size) {
		long r = gate(SYS_pread64, GREEN_TRACE_FD, (long)f + off, st.size - off, off, 0, 0);
		if (r == -EINTR) continue;
		if (r <= 0) return -1;
		off += r;
	}
	memcpy(&hl, f + 8, 4);
	if (memcmp(f, "GREENRR1", 8) || 12 + (long)hl > st.size) {
		msg("green-replay: not a green-record trace\n");
		return -1;
	}
	memset(R, 0, sizeof *R);
	R->cur = (unsigned char *)RBUF_AT;
	R->file = f;
	R->fp = f + 12 + hl;
	R->fend = f + st.size;
	return 0;
}

hidden int trace_next_sys(struct trace_sys *t)
{
	uint16_t nr;
	uint8_t na;
	if (next_kind() != 'S') return 0;
	get(0, 1);
	memset(t, 0, sizeof *t);
	if (!get(&nr, 2) || !get(&na, 1) || na > 6 || !get(t->args, 8 * na) || !get(&t->ret, 8))
		return 0;
	t->nr = nr;
	t->nargs = na;
	return 1;
}

hidden void trace_apply_outs(void)
{
	for (;;) {
		uint32_t n;
		uint64_t addr;
		if (!get(&n, 4) || !n) return;
		if (!get(&addr, 8) || !get((void *)(uintptr_t)addr, n)) return;
	}
}

hidden int trace_next_signal(uint64_t point, siginfo_t *si)
{
	if (!R->gpend) {
		if (peek() != 'G') return 0;
		if (!get(0, 1) || !get(&R->gpoint, 8) || !get(&R->ginfo, 128)) return 0;
		R->gpend = 1;
	}
	if (R->gpoint > point) return 0;
	if (R->gpoint < point) {
		msg("green-replay: divergence: the recorded run took a signal at an earlier point\n");
		trace_diverged();
		gate(SYS_exit_group, 125, 0, 0, 0, 0, 0);
	}
	R->gpend = 0;
	*si = R->ginfo;
	return 1;
}

hidden int trace_at_exit(void)
{
	return next_kind() == 'E';
}

hidden int trace_at_exec(void)
{
	return next_kind() == 'X';
}

hidden void trace_expect_fatal(int sig, uint64_t event)
{
	uint32_t s;
	(void)event;
	if (next_kind() == 'K' && get(0, 1) && get(&s, 4) && (int)s == sig) return;
	msg("green-replay: divergence: the replay dies of a signal the recorded run did not\n");
}

hidden const char *trace_what_next(void)
{
	switch (next_kind()) {
	case -1: return "no more events (the recording ends here)";
	case 'E': return "the program's exit";
	case 'K': return "the end by a fatal signal";
	case 'X': return "an execve";
	case 'G': return "a signal to be taken first";
	default: return "a damaged event";
	}
}

hidden void trace_diverged(void)
{
	msg("green-replay: the replay cannot go on: the program, its input or its environment is not "
	    "the one recorded (docs/record.md: what cannot be recorded)\n");
}

static char *put_s(char *p, char *end, const char *s)
{
	while (*s && p < end) *p++ = *s++;
	return p;
}

static char *put_x(char *p, char *end, unsigned long v, int neg)
{
	char t[24];
	int n = 0;
	if (neg && (long)v < 0) {
		p = put_s(p, end, "-");
		v = -v;
	}
	if (v >= 10) p = put_s(p, end, "0x");
	do t[n++] = "0123456789abcdef"[v % 16]; while (v /= 16);
	while (n && p < end) *p++ = t[--n];
	return p;
}

hidden void trace_describe(char *b, size_t len, long nr, const long *a, int na, int with_ret, long ret)
{
	char *p = b, *end = b + len - 1;
	const char *name = __green_rec_name(nr);
	if (name) p = put_s(p, end, name);
	else {
		p = put_s(p, end, "syscall ");
		p = put_x(p, end, nr, 0);
	}
	p = put_s(p, end, "(");
	for (int i = 0; i < na; i++) {
		if (i) p = put_s(p, end, ", ");
		p = put_x(p, end, a[i], 1);
	}
	p = put_s(p, end, ")");
	if (with_ret) {
		p = put_s(p, end, " = ");
		p = put_x(p, end, ret, 1);
	}
	*p = 0;
}
#endif
