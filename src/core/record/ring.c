/*
 * ring.c — green-record --last=N: keep only the last N seconds of a run.
 *
 * A replay starts where its trace starts, so a trace that keeps only its
 * last seconds needs the process as it was when they began.  The recorder
 * takes a checkpoint every N seconds: a fork of the one kernel thread
 * (clone with no exit signal, so the program never sees the child, nor
 * reaps it with waitpid), which blocks all signals and waits on a socket.
 * The events from a checkpoint on go to a segment file of their own (two,
 * opened by the launcher on GREEN_RING_SEG, unlinked: used in turn).  At
 * the next checkpoint the oldest one is told to go and its segment is
 * emptied for the new one; so at most two checkpoints and two segments are
 * alive, the trace covers between N and 2N seconds, and the disk and the
 * memory held are bounded by the window, not by the run.
 *
 *     start ──N s──> ckpt A ──N s──> ckpt B ──N s──> ckpt C ...
 *     seg 0          seg 1           seg 0 (emptied)  seg 1 (emptied)
 *     kept: (start|A|B...) and the one after it, with their segments
 *
 * At the end (exit, a fatal signal, execve) the recorder flushes its
 * block, tells the younger checkpoint to go, and the older to write the
 * trace: after the launcher's header, a snapshot of itself — its
 * registers (saved where it will resume: __green_ring_save,
 * src/arch/x86_64/ringregs.S), the kernel's state a replay needs (the
 * thread pointer, the break, the signal mask, handlers and alternate
 * stack) and every mapping with its non-zero pages — then
 * both segments' blocks as they are.  The recorder waits for it to finish
 * before it ends.  If the oldest is still the program's start, the
 * recorder copies the segments itself: an ordinary trace.
 *
 * The snapshot is a record in the event stream ('R', then 'M' mappings,
 * 'P' pages, 'Z'), compressed in blocks like the rest (trace.c).  A replay
 * that finds it (ring_restore) never runs the program's start: on a stack
 * of its own it unmaps what the snapshot does not have, keeps the
 * read-only file mappings that are the same (the program's text: gdb's
 * breakpoints stay), maps the others anonymous and writes their pages,
 * sets the break and the kernel's state, and jumps to the saved
 * registers.  It comes out of the checkpoint's fork in replay mode,
 * before the event the segment starts with; the counters (events, points,
 * signals, the hash) are the recording's at that point, so the summary,
 * `green-replay when` and `goto` number the events as the whole run did.
 * The reader's state lives in its own mapping (trace.c), since the
 * library's data is overwritten while it reads.
 */
#ifdef __x86_64__
#include <signal.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "base/seam.h"
#include "record/record.h"
#include "record/trace.h"

#define SCRATCH_AT 0x5f2000000000ul     /* maps text, the table, a copy buffer, the restore's stack */
#define SCRATCH (16ul << 20)
#define MAPS_TEXT (4ul << 20)
#define MAX_MAPS 65536
#define COPY_BUF (1ul << 20)
#define PAGE 4096ul
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define BIT(s) (1ull << ((s) - 1))

/* kind of a mapping */
#define K_FILE_RO 1     /* a read-only file mapping: kept if the replay has the same */
#define K_STACK 2       /* [stack]: grows down */
#define K_READ 4        /* readable: its non-zero pages follow */

struct rmap {
	uint64_t start, end, key;
	uint32_t prot, kind;
};

struct kstack { void *sp; int flags; size_t size; };

/* the checkpoint's registers and kernel state ('R') */
struct ckstate {
	long ctx[8];                  /* rbx rbp r12-r15 rsp rip: __green_ring_save */
	uint64_t mask;
	long fs, brk;
	struct kstack ss;
	struct green_ksa sa[65];
	uint32_t nmaps;
};

static void msg(const char *s)
{
	G3(SYS_write, 2, s, strlen(s));
}

static unsigned char *scratch(void)
{
	long r = gate(SYS_mmap, SCRATCH_AT, SCRATCH, PROT_READ | PROT_WRITE,
	              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE, -1, 0);
	if (r != (long)SCRATCH_AT && r != -EEXIST) {
		msg("green-record: the ring cannot map its scratch memory\n");
		G1(SYS_exit_group, 125);
	}
	return (unsigned char *)SCRATCH_AT;
}

static int write_all(int fd, const void *p, size_t n)
{
	while (n) {
		long r = G3(SYS_write, fd, p, n);
		if (r == -EINTR) continue;
		if (r <= 0) return -1;
		p = (const char *)p + r;
		n -= r;
	}
	return 0;
}

/* ---- /proc/self/maps, parsed (both sides) */

static uint64_t hex(const char **s)
{
	uint64_t v = 0;
	for (;; ++*s) {
		char c = **s;
		if (c >= '0' && c <= '9') v = v * 16 + c - '0';
		else if (c >= 'a' && c <= 'f') v = v * 16 + c - 'a' + 10;
		else return v;
	}
}

/* The mappings of this process outside the recorder's own region and the
 * kernel's pages, into t; their number */
static uint32_t read_maps(struct rmap *t)
{
	char *text = (char *)SCRATCH_AT;
	long n = 0, r, fd = G3(SYS_open, "/proc/self/maps", O_RDONLY | O_CLOEXEC, 0);
	uint32_t k = 0;
	if (fd < 0) return 0;
	while ((r = G3(SYS_read, fd, text + n, MAPS_TEXT - 1 - n)) > 0 || r == -EINTR)
		if (r > 0) n += r;
	G1(SYS_close, fd);
	text[n] = 0;
	for (const char *s = text; *s && k < MAX_MAPS;) {
		const char *line = s;
		struct rmap m = { 0 };
		uint64_t h = 0xcbf29ce484222325ull;
		m.start = hex(&s);
		s++;
		m.end = hex(&s);
		s++;
		m.prot = (s[0] == 'r' ? PROT_READ : 0) | (s[1] == 'w' ? PROT_WRITE : 0) | (s[2] == 'x' ? PROT_EXEC : 0);
		const char *path = s;
		while (*s && *s != '\n') s++;
		for (const char *p = line; p < s; p++) h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
		m.key = h;
		/* the path is the sixth field; an inode other than 0 is a file */
		int field = 0;
		while (path < s && field < 4) {
			while (path < s && *path != ' ') path++;
			while (path < s && *path == ' ') path++;
			field++;
		}
		int special = path < s && *path == '[';
		int is_file = path < s && *path == '/';
		if (*s) s++;
		if (m.start >= GREEN_REC_OWN_LO && m.start < GREEN_REC_OWN_HI) continue;
		if (m.start >= 0x800000000000ul) continue;        /* vsyscall */
		if (special && (!memcmp(path, "[vdso]", 6) || !memcmp(path, "[vvar", 5))) continue;   /* the kernel's */
		if (special && !memcmp(path, "[stack]", 7)) m.kind |= K_STACK;
		if (is_file && !(m.prot & PROT_WRITE)) m.kind |= K_FILE_RO;
		if (m.prot & PROT_READ) m.kind |= K_READ;
		t[k++] = m;
	}
	return k;
}

/* ---- record: the checkpoints and the segments */

struct ckpt {
	int pid;     /* -1: none; 0: the program's start, no process */
	int sock;    /* our end of its socket pair */
	int seg;     /* the segment its events begin */
};

static int ring_on;
static uint64_t window_ns, next_ns;
static unsigned calls;
static struct ckpt older = { -1, -1, 0 }, younger = { -1, -1, 0 };
static struct ckstate ck;          /* a checkpoint's own, filled in its process */

static uint64_t now_ns(void)
{
	struct timespec ts;
	G2(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

hidden int __green_ring_fd(long fd)
{
	return ring_on && fd >= GREEN_RING_SEG && fd < GREEN_RING_SOCK + 2;
}

hidden void __green_ring_begin(void)
{
	const char *s = getenv("GREEN_RECORD_LAST");
	long secs = 0;
	/* no segments: a program the recorded one started with execve,
	 * which inherits the variable but not the descriptors */
	if (!s || G3(SYS_fcntl, GREEN_RING_SEG, F_SETFD, FD_CLOEXEC) < 0 ||
	    G3(SYS_fcntl, GREEN_RING_SEG + 1, F_SETFD, FD_CLOEXEC) < 0)
		return;
	while (*s >= '0' && *s <= '9') secs = secs * 10 + *s++ - '0';
	if (secs <= 0 || *s) {
		msg("green-record: GREEN_RECORD_LAST wants a whole number of seconds\n");
		G1(SYS_exit_group, 125);
	}
	window_ns = secs * 1000000000ull;
	next_ns = now_ns() + window_ns;
	older = (struct ckpt){ 0, -1, 0 };
	ring_on = 1;
	trace_to(GREEN_RING_SEG);
}

/* A word to a checkpoint: a socket, so that one that died cannot raise
 * SIGPIPE in the program (MSG_NOSIGNAL) */
static void send_to(int fd, const char *m, size_t n)
{
	while (gate(SYS_sendto, fd, (long)m, n, MSG_NOSIGNAL, 0, 0) == -EINTR) ;
}

static void reap(int pid)
{
	while (gate(SYS_wait4, pid, 0, __WCLONE, 0, 0, 0) == -EINTR) ;
}

/* A checkpoint process told to go ('q') or to write the trace ('a'),
 * and waited for */
static void tell(struct ckpt *c, char what)
{
	if (c->pid > 0) {
		send_to(c->sock, &what, 1);
		G1(SYS_close, c->sock);
		reap(c->pid);
	}
	c->pid = -1;
}

static void empty(int seg)
{
	G2(SYS_ftruncate, GREEN_RING_SEG + seg, 0);
	G3(SYS_lseek, GREEN_RING_SEG + seg, 0, SEEK_SET);
}

/* The segments from seg on (n of them) appended to the trace */
static void copy_segments(int seg, int n)
{
	unsigned char *b = scratch() + MAPS_TEXT;
	for (int i = 0; i < n; i++) {
		int fd = GREEN_RING_SEG + (seg + i) % 2;
		long off = 0, r;
		while ((r = gate(SYS_pread64, fd, (long)b, COPY_BUF, off, 0, 0)) > 0 || r == -EINTR) {
			if (r < 0) continue;
			if (write_all(GREEN_TRACE_FD, b, r) < 0) {
				msg("green-record: cannot write the trace\n");
				return;
			}
			off += r;
		}
	}
}

static int zero_page(const uint64_t *p)
{
	for (size_t i = 0; i < PAGE / 8; i++)
		if (p[i]) return 0;
	return 1;
}

/* The checkpoint's process writes itself: 1 when a replay resumes here */
static int dump(void)
{
	struct rmap *t = (struct rmap *)(scratch() + MAPS_TEXT + COPY_BUF);
	ck.fs = 0;
	G2(SYS_arch_prctl, ARCH_GET_FS, &ck.fs);
	ck.brk = G1(SYS_brk, 0);
	G2(SYS_sigaltstack, 0, &ck.ss);
	for (int s = 1; s < 65; s++) G4(SYS_rt_sigaction, s, 0, &ck.sa[s], 8);
	if (__green_ring_save(ck.ctx)) return 1;
	ck.nmaps = read_maps(t);
	trace_to(GREEN_TRACE_FD);
	trace_put("R", 1);
	trace_put(&ck, sizeof ck);
	for (uint32_t i = 0; i < ck.nmaps; i++) {
		trace_put("M", 1);
		trace_put(&t[i], sizeof t[i]);
	}
	for (uint32_t i = 0; i < ck.nmaps; i++) {
		if (!(t[i].kind & K_READ)) continue;
		for (uint64_t a = t[i].start; a < t[i].end; a += PAGE) {
			if (zero_page((const uint64_t *)a)) continue;
			trace_put("P", 1);
			trace_put(&a, 8);
			trace_put((const void *)a, PAGE);
		}
	}
	trace_put("Z", 1);
	trace_flush();
	return 0;
}

/* The checkpoint's process: waits, then goes or writes the trace.
 * Returns only in a replay that resumes from it. */
static void checkpoint_waits(int rfd, int seg)
{
	uint64_t all = ~0ull;
	char c[2] = { 0, 0 };
	G4(SYS_rt_sigprocmask, SIG_SETMASK, &all, &ck.mask, 8);
	/* only the trace, the segments and the socket stay open here: a
	 * descriptor of the program's held open by a checkpoint would keep a
	 * pipe or socket from its end of file, or its peer from seeing it
	 * closed (our end moves to GREEN_EVENTS_FD's number,
	 * which the checkpoint does not need) */
	G3(SYS_dup3, rfd, GREEN_EVENTS_FD, 0);
	rfd = GREEN_EVENTS_FD;
	G3(SYS_close_range, 0, GREEN_TRACE_FD - 1, 0);
	G3(SYS_close_range, GREEN_RING_SEG + 2, ~0u, 0);
	for (long n = 0, r; n < 2 && ((r = G3(SYS_read, rfd, c + n, 2 - n)) > 0 || r == -EINTR);)
		if (r > 0) n += r;
	if (c[0] == 'a') {
		if (dump()) return;
		copy_segments(seg, c[1]);
	}
	G1(SYS_exit_group, 0);
}

/* Every N seconds, before an event: a checkpoint; the oldest goes.  One
 * that cannot be made is skipped: the current segment grows on until the
 * next succeeds. */
static void checkpoint(void)
{
	int p[2], pid;
	int seg = younger.pid >= 0 ? older.seg : older.seg ^ 1;   /* the new one's */
	trace_flush();
	if (G4(SYS_socketpair, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) < 0) return;
	pid = G2(SYS_clone, 0, 0);   /* no exit signal: the program never sees it */
	if (pid == 0) {
		checkpoint_waits(p[0], seg);
		return;   /* a replay, resumed from the snapshot */
	}
	G1(SYS_close, p[0]);
	if (pid < 0) {
		G1(SYS_close, p[1]);
		msg("green-record: the ring cannot fork a checkpoint now: its window grows\n");
		return;
	}
	if (younger.pid >= 0) {
		tell(&older, 'q');
		older = younger;
	}
	empty(seg);
	G3(SYS_dup3, p[1], GREEN_RING_SOCK + seg, O_CLOEXEC);
	G1(SYS_close, p[1]);
	younger = (struct ckpt){ pid, GREEN_RING_SOCK + seg, seg };
	trace_to(GREEN_RING_SEG + seg);
}

/* Before each event the libc's calls make (record.c: one_call) */
hidden void __green_ring_tick(void)
{
	if (!ring_on || ++calls % 64) return;
	uint64_t t = now_ns();
	if (t < next_ns) return;
	next_ns = t + window_ns;
	checkpoint();
}

/* The end of the recording, its last block flushed: the trace written */
hidden void __green_ring_end(void)
{
	int n;
	if (!ring_on) return;
	ring_on = 0;
	n = younger.pid >= 0 ? 2 : 1;
	tell(&younger, 'q');
	if (older.pid == 0) {
		copy_segments(older.seg, n);
	} else {
		char m[2] = { 'a', (char)n };
		send_to(older.sock, m, 2);
		G1(SYS_close, older.sock);
		reap(older.pid);
	}
}

/* ---- replay: the snapshot restored */

/* what the restore keeps from before (in the scratch, not the library's data) */
struct keep {
	struct green_rec_keep rec;
	struct ckstate ck;
	long ctx[8];
	uint32_t ncur;
};
#define KEEP ((struct keep *)(SCRATCH_AT + SCRATCH - 65536))

static _Noreturn void bad(const char *what)
{
	msg("green-replay: the ring's checkpoint cannot be restored: ");
	msg(what);
	msg("\n");
	for (;;) G1(SYS_exit_group, 125);
}

static _Noreturn void restore(void)
{
	struct keep *k = KEEP;
	struct rmap *cur = (struct rmap *)(SCRATCH_AT + MAPS_TEXT);
	struct rmap *snap = cur + MAX_MAPS;
	unsigned char *present = (unsigned char *)(snap + MAX_MAPS);
	uint64_t all = ~0ull;
	uint32_t n;
	char c;

	G4(SYS_rt_sigprocmask, SIG_SETMASK, &all, 0, 8);
	if (!trace_get(&c, 1) || c != 'R' || !trace_get(&k->ck, sizeof k->ck) || k->ck.nmaps > MAX_MAPS)
		bad("damaged");
	n = k->ck.nmaps;
	for (uint32_t i = 0; i < n; i++) {
		if (!trace_get(&c, 1) || c != 'M' || !trace_get(&snap[i], sizeof snap[i])) bad("damaged");
		present[i] = 0;
	}
	/* what the replay has now: kept if the snapshot has it the same
	 * (read-only file mappings), unmapped otherwise */
	k->ncur = read_maps(cur);
	for (uint32_t j = 0; j < k->ncur; j++) {
		uint32_t i;
		for (i = 0; i < n; i++)
			if ((snap[i].kind & K_FILE_RO) && snap[i].key == cur[j].key) break;
		if (i < n) present[i] = 1;
		else G2(SYS_munmap, cur[j].start, cur[j].end - cur[j].start);
	}
	G1(SYS_brk, k->ck.brk);
	for (uint32_t i = 0; i < n; i++) {
		if (present[i]) continue;
		long flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | (snap[i].kind & K_STACK ? MAP_GROWSDOWN : 0);
		if (gate(SYS_mmap, snap[i].start, snap[i].end - snap[i].start, PROT_READ | PROT_WRITE,
		         flags, -1, 0) != (long)snap[i].start)
			bad("a mapping cannot be made again");
	}
	/* the pages, in the order of the mappings */
	for (uint32_t i = 0;;) {
		uint64_t a;
		if (!trace_get(&c, 1)) bad("damaged");
		if (c == 'Z') break;
		if (c != 'P' || !trace_get(&a, 8)) bad("damaged");
		while (i < n && a >= snap[i].end) i++;
		if (i == n || a < snap[i].start) bad("damaged");
		trace_get(present[i] ? 0 : (void *)a, PAGE);
	}
	for (uint32_t i = 0; i < n; i++)
		if (!present[i]) G3(SYS_mprotect, snap[i].start, snap[i].end - snap[i].start, snap[i].prot);
	/* the kernel's state, then the recorder's (record.c), then the registers */
	for (int s = 1; s < 65; s++)
		if (s != SIGKILL && s != SIGSTOP) G4(SYS_rt_sigaction, s, &k->ck.sa[s], 0, 8);
	k->ck.ss.flags &= ~SS_ONSTACK;
	G2(SYS_sigaltstack, &k->ck.ss, 0);
	G2(SYS_arch_prctl, ARCH_SET_FS, k->ck.fs);
	ring_on = 0;
	__green_rec_resumed(&k->rec);
	k->ck.mask &= ~BIT(SIGSYS);
	G4(SYS_rt_sigprocmask, SIG_SETMASK, &k->ck.mask, 0, 8);
	__green_ring_jump(k->ck.ctx);
}

/* A replay whose trace starts with a ring's snapshot: becomes the
 * recorded process at its checkpoint; never returns */
hidden _Noreturn void __green_ring_restore(const struct green_rec_keep *rec)
{
	scratch();
	KEEP->rec = *rec;
	__asm__ __volatile__("mov %0, %%rsp\n\tcall *%1\n\tud2"
	                     :: "r"(SCRATCH_AT + SCRATCH - 65536 - 64), "r"(restore) : "memory");
	__builtin_unreachable();
}
#endif
