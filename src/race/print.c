/*
 * print.c — the reports (data race, heap use after free, thread leak),
 * in ThreadSanitizer's words and layout so that what its users grep for
 * is there; their suppressions; and the exit status (docs/race.md).
 *
 * A data race report names both accesses (kind, size, address, thread,
 * the locks it held, stack), the variable (a global's name, a heap block
 * with the stack that allocated it, a thread's stack or thread-local
 * block, a file descriptor with the stack that created it), the locks
 * with the stacks that created them, the threads with the stacks that
 * created them, under GREEN_SCHED the schedule so far, then a SUMMARY
 * line.  Frames read `#N function file:line (program+0xADDRESS)`: the
 * function from the executable's symbol table (elf.c), file and line
 * from its .debug_line (dwarf.c), `<null>` where there is none (the
 * libc's entry points, a program built without -g).  The frames below
 * main and the detector's own thread start are left out.
 *
 * A race is reported once: a second race between the same two program
 * locations, or on a granule already reported, is dropped.
 * Suppressions and benign-race annotations silence a report; if any was
 * made, the process exits with status 66 (exitcode=) whatever its own
 * status, after the thread leaks are reported; a forked child starts
 * with none reported.
 *
 * Written with raw write(2) calls: stdio may be locked by a parked thread.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include "race.h"
#include "base/gconfig.h"

hidden int __race_nreports;
hidden void __green_explore_where(uint64_t *steps, uint64_t *hash);

/* ---- output */
static char out[32768];
static size_t outn;

static void put(const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(out + outn, sizeof out - outn, fmt, ap);
	va_end(ap);
	if (n > 0) outn += (size_t)n < sizeof out - outn ? (size_t)n : sizeof out - outn - 1;
}

static void flush(void)
{
	size_t i = 0;
	while (i < outn) {
		long n = __syscall(SYS_write, 2, out + i, outn - i);
		if (n <= 0) break;
		i += n;
	}
	outn = 0;
}

/* ---- frames */
static uintptr_t addr_of(uint32_t pc)
{
	return __race_text + pc;
}

static const char *func(uintptr_t a, char *buf, size_t len)
{
	uintptr_t start;
	const char *f = __race_func_at(a, buf, len, &start);
	return f ? f : "<null>";
}

/* "file:line" in buf, with strip_path_prefix applied, or 0 */
static const char *place(const char *dir, const char *file, unsigned line, char *buf, size_t len)
{
	const char *p;
	if (file[0] == '/' || !dir || !*dir) snprintf(buf, len, "%s:%u", file, line);
	else snprintf(buf, len, "%s/%s:%u", dir, file, line);
	if (__race_strip_prefix && *__race_strip_prefix && (p = strstr(buf, __race_strip_prefix)))
		return p + strlen(__race_strip_prefix);
	return buf;
}

/* The frames of an access: its pc (0: none), then its stack node (a
 * lockset node at its top is skipped, its set returned in *set). */
struct frames { uintptr_t a[64]; int n; uint32_t set; };

static void frames_of(uint32_t node, uint32_t pc, int with_pc, struct frames *f)
{
	uint32_t p;
	f->n = 0;
	f->set = 0;
	if (with_pc) f->a[f->n++] = addr_of(pc);
	while (node && f->n < 64) {
		__race_node_get(node, &node, &p);
		if (p & RACE_LOCKSET_PC) {
			if (!f->set) f->set = p & ~RACE_LOCKSET_PC;
			continue;
		}
		f->a[f->n++] = addr_of(p);
	}
}

/* ThreadSanitizer's trimming: nothing below main (the libc's start,
 * even when main's own frame is not known: a thread created from the C++
 * runtime), nor the detector's own thread start */
static int shown(const char *fn)
{
	return strncmp(fn, "__race_", 7) && strcmp(fn, "__green_thread_start") &&
	       strcmp(fn, "libc_start_main_stage2") && strcmp(fn, "__libc_start_main");
}

/* The frames as printed: each address expanded into the calls inlined
 * there (innermost first), each with its function and its file:line (0:
 * none) */
struct line { const char *fn, *at; uintptr_t a; int entry; };
struct lines { struct line l[96]; int n; char text[96 * 320]; size_t used; };

static const char *keep(struct lines *ls, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d;
	if (ls->used + n > sizeof ls->text) return "?";
	d = ls->text + ls->used;
	memcpy(d, s, n);
	ls->used += n;
	return d;
}

static void expand(const struct frames *f, struct lines *ls)
{
	char fb[256], wb[512];
	int i, j, k;
	ls->n = 0;
	ls->used = 0;
	for (i = 0; i < f->n && ls->n < 96; i++) {
		struct race_inlined in[8];
		const char *dir, *file, *fn, *w;
		uintptr_t start = 0;
		unsigned line;
		int entry;
		fn = __race_func_at(f->a[i], fb, sizeof fb, &start);
		if (!fn) fn = "<null>";
		if (!shown(fn)) continue;
		/* a libc entry point's own frame: its start, nothing inlined */
		entry = start == f->a[i];
		k = entry ? 0 : __race_inlined(f->a[i], in, 8);
		w = __race_line_of(f->a[i], &dir, &file, &line) ? place(dir, file, line, wb, sizeof wb) : 0;
		for (j = 0; j <= k && ls->n < 96; j++) {
			struct line *l = &ls->l[ls->n++];
			l->a = f->a[i];
			l->entry = entry;
			l->fn = j < k && in[j].name ? keep(ls, __race_demangle(in[j].name, fb, sizeof fb)) :
			        keep(ls, j < k ? "<null>" : func(f->a[i], fb, sizeof fb));
			l->at = w ? keep(ls, w) : 0;
			if (j < k)
				w = __race_line_file(in[j].unit, in[j].file, &dir, &file) ?
				    place(dir, file, in[j].line, wb, sizeof wb) : 0;
		}
		if (!strcmp(ls->l[ls->n - 1].fn, "main")) break;
	}
}

static void stack(const struct frames *f)
{
	static struct lines ls;
	int i;
	expand(f, &ls);
	for (i = 0; i < ls.n; i++)
		put("    #%d %s %s (%s+0x%lx)\n", i, ls.l[i].fn, ls.l[i].at ? ls.l[i].at : "<null>",
		    __race_exe_name(), (unsigned long)(ls.l[i].a - __race_bias()));
	if (!ls.n) put("    [failed to restore the stack]\n");
	put("\n");
}

/* the frame a SUMMARY line names: the first of the program's own with a
 * file and line, else the first */
static void summary(const char *what, const struct frames *f)
{
	static struct lines ls;
	int i;
	expand(f, &ls);
	for (i = 0; i < ls.n; i++)
		if (ls.l[i].at && !ls.l[i].entry) {
			put("SUMMARY: ThreadSanitizer: %s %s in %s\n", what, ls.l[i].at, ls.l[i].fn);
			return;
		}
	put("SUMMARY: ThreadSanitizer: %s (%s+0x%lx) in %s\n", what, __race_exe_name(),
	    ls.n ? (unsigned long)(ls.l[0].a - __race_bias()) : 0ul, ls.n ? ls.l[0].fn : "<null>");
}

/* ---- threads */
static struct green_thread *live_green(const struct race_thread *r)
{
	struct green_thread *g;
	if (!r->gid) return 0;
	for (g = __green_all; g; g = g->all_next)
		if (g == r->g && g->id == r->gid && g->state != GS_EXITED) return g;
	return 0;
}

static const char *who(unsigned tid, char *buf, size_t len)
{
	if (tid == 0) return "main thread";
	snprintf(buf, len, "thread T%u", tid);
	return buf;
}

static void thread_line(unsigned tid)
{
	const struct race_thread *r = __race_threads[tid];
	struct green_thread *g = live_green(r);
	const char *name = g ? g->name : r->name;
	char by[32];
	struct frames f;
	if (!tid) return;   /* ThreadSanitizer does not describe the main thread */
	put("  Thread T%u", tid);
	if (name[0]) put(" '%s'", name);
	if (!r->gid) {
		put(" (not yet started) created by %s at:\n", who(r->creator, by, sizeof by));
	} else {
		put(" (tid=%u, %s) created by %s at:\n", r->gid,
		    g && !r->exited ? "running" : "finished", who(r->creator, by, sizeof by));
	}
	frames_of(r->create_node, r->create_pc, 1, &f);
	stack(&f);
}

/* ---- where an address is: thread stacks and thread-local blocks */
static size_t tls_block(void)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *)getauxval(AT_PHDR);
	size_t n = getauxval(AT_PHNUM), i;
	for (i = 0; ph && i < n; i++)
		if (ph[i].p_type == PT_TLS) {
			size_t al = ph[i].p_align ? ph[i].p_align : 1;
			return (ph[i].p_memsz + al - 1) & ~(al - 1);
		}
	return 0;
}

static int in(uintptr_t a, const void *lo, size_t n)
{
	return lo && a >= (uintptr_t)lo && a - (uintptr_t)lo < n;
}

/* The main thread's stack, from the kernel's map. */
static int in_main_stack(uintptr_t a)
{
	char line[512];
	int fd = __real_open("/proc/self/maps", O_RDONLY | O_CLOEXEC), found = 0;
	size_t n = 0;
	long k;
	if (fd < 0) return 0;
	while ((k = __real_read(fd, line + n, sizeof line - 1 - n)) > 0 || n) {
		char *nl;
		n += k > 0 ? (size_t)k : 0;
		line[n] = 0;
		if (!(nl = strchr(line, '\n'))) {
			if (k <= 0 || n == sizeof line - 1) break;
			continue;
		}
		*nl = 0;
		if (strstr(line, "[stack]")) {
			unsigned long lo, hi;
			if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && a >= lo && a < hi) found = 1;
			break;
		}
		n -= nl + 1 - line;
		memmove(line, nl + 1, n);
	}
	__real_close(fd);
	return found;
}

static int thread_place(uintptr_t a, int *tls)
{
	struct green_thread *g;
	size_t tb = tls_block();
	for (g = __green_all; g; g = g->all_next) {
		struct race_thread *r;
		int stack_hit = g->stack_mode == GREEN_STACK_SEPARATE && g->map_base ?
		                in(a, g->map_base, g->map_size) : in(a, g->stack_lo, g->stack_size);
		int tls_hit = tb && g->tcb && in(a, (char *)g->tcb - tb, tb) &&
		              (g == &__green_main || g->tcb != __green_main.tcb);
		if (!stack_hit && !tls_hit) continue;
		r = g == &__green_main ? __race_threads[0] : __race_of_pthread((pthread_t)g);
		*tls = tls_hit;
		return r ? (int)r->tid : -1;
	}
	*tls = 0;
	return -1;
}

/* ---- the variable: a global, a heap block, a stack, a TLS block, a
 * descriptor; its name (for suppressions) in var */
static void location(uintptr_t addr, char *var, size_t len, unsigned *alloc_tid)
{
	struct race_block b;
	char buf[256], by[32];
	uintptr_t start;
	size_t size;
	uint32_t node, pc;
	unsigned tid;
	int fd, t, tls;
	const char *name;
	struct frames f;
	var[0] = 0;
	*alloc_tid = (unsigned)-1;
	if ((fd = __race_fd_of(addr, &tid, &node, &pc)) >= 0) {
		if (tid == (unsigned)-1) {
			put("  Location is file descriptor %d.\n\n", fd);
			return;
		}
		put("  Location is file descriptor %d created by %s at:\n", fd, who(tid, by, sizeof by));
		frames_of(node, pc, 1, &f);
		stack(&f);
		return;
	}
	if ((t = thread_place(addr, &tls)) >= 0) {
		put("  Location is %s of %s.\n\n", tls ? "TLS" : "stack", who(t, by, sizeof by));
		return;
	}
	if ((name = __race_object_at(addr, buf, sizeof buf, &start, &size))) {
		snprintf(var, len, "%s", name);
		put("  Location is global '%s' of size %lu at 0x%lx (%s+0x%lx)\n\n", var,
		    (unsigned long)size, (unsigned long)start, __race_exe_name(),
		    (unsigned long)(start - __race_bias()));
		return;
	}
	if (__race_block_find(addr, &b)) {
		put("  Location is heap block of size %lu at 0x%lx allocated by %s:\n",
		    (unsigned long)b.size, (unsigned long)b.addr, who(b.tid, by, sizeof by));
		frames_of(b.node, b.pc, 1, &f);
		stack(&f);
		*alloc_tid = b.tid;
		return;
	}
	if (in_main_stack(addr)) put("  Location is stack of main thread.\n\n");
}

/* ---- the locks held: M0, M1, ... in the order the report names them */
struct mutexes { uint32_t mid[32]; int n; };

static void held(struct mutexes *ms, uint32_t set)
{
	uint32_t mids[16];
	unsigned char w[16];
	unsigned n = __race_lockset_get(set, mids, w, 16), i;
	int k;
	for (i = 0; i < n; i++) {
		for (k = 0; k < ms->n && ms->mid[k] != mids[i]; k++) {}
		put("%s %s M%d", i ? "," : " (mutexes:", w[i] ? "write" : "read", k);
		if (k == ms->n && ms->n < 32) ms->mid[ms->n++] = mids[i];
	}
	if (n) put(")");
}

static void mutex_lines(const struct mutexes *ms)
{
	int k;
	for (k = 0; k < ms->n; k++) {
		const struct race_mutex *m = __race_mutex_get(ms->mid[k]);
		struct frames f;
		if (!m || m->destroyed) {
			put("  Mutex M%d is already destroyed.\n\n", k);
			continue;
		}
		put("  Mutex M%d (0x%lx) created at:\n", k, (unsigned long)m->addr);
		frames_of(m->node, m->pc, 1, &f);
		stack(&f);
	}
}

static void access_line(const char *prefix, const struct race_access *a, int uaf_free,
                        const struct frames *f, struct mutexes *ms)
{
	char kind[32], by[32];
	snprintf(kind, sizeof kind, "%s%s", a->atomic ? "atomic " : "", a->write ? "write" : "read");
	if (!*prefix) kind[0] += 'A' - 'a';
	put("  %s%s of size %u at 0x%lx by %s", prefix, kind, a->size, (unsigned long)a->addr,
	    who(a->tid, by, sizeof by));
	if (!uaf_free) held(ms, f->set);
	put(":\n");
	stack(f);
}

/* ---- suppressions */
static int suppressed_frames(const char *kind, const struct frames *f, int top)
{
	static struct lines ls;
	int i;
	expand(f, &ls);
	for (i = 0; i < ls.n && i < (top ? 1 : ls.n); i++)
		if (__race_suppressed(kind, ls.l[i].fn) || __race_suppressed(kind, ls.l[i].at))
			return 1;
	return 0;
}

/* ---- deduplication: the pairs of locations and the granules reported */
#define SEEN 1024
static uint64_t seen_pairs[SEEN], seen_addrs[SEEN];

static int seen(uint64_t *set, uint64_t key)
{
	unsigned i = (unsigned)(key * 0x9e3779b97f4a7c15ull >> 54) & (SEEN - 1), n;
	key |= 1;
	for (n = 0; n < SEEN && set[i]; n++, i = (i + 1) & (SEEN - 1))
		if (set[i] == key) return 1;
	if (n < SEEN) set[i] = key;
	return 0;
}

static void schedule_line(void)
{
	if (__green_xmode) {
		uint64_t steps, hash;
		__green_explore_where(&steps, &hash);
		put("  Schedule: GREEN_SCHED=%s, at step %llu, hash %016llx (the same setting replays it)\n\n",
		    __green_config.sched_text, (unsigned long long)steps, (unsigned long long)hash);
	}
}

static __attribute__((noreturn)) void die(void);

hidden void __race_report(const struct race_access *cur, const struct race_access *old, int uaf)
{
	uint32_t a = cur->pc, b = uaf ? old->node : old->pc;
	uint64_t pair = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
	struct frames fc, fo;
	struct mutexes ms = { .n = 0 };
	char var[256];
	const char *what;
	unsigned threads[4], nt = 0, i, alloc_tid;

	if (!__race_opt.report_bugs) return;
	if (seen(seen_pairs, pair << 1 | uaf) | seen(seen_addrs, (cur->addr & ~(uintptr_t)7) << 1))
		return;
	if (__race_benign(cur->addr, cur->size) || __race_benign(old->addr, old->size)) return;
	frames_of(cur->node, cur->pc, 1, &fc);
	frames_of(old->node, old->pc, !uaf, &fo);
	if (uaf) {
		/* the free's own frame, then where it was called */
		memmove(fo.a + 1, fo.a, (fo.n < 63 ? fo.n : 63) * sizeof *fo.a);
		fo.a[0] = (uintptr_t)__race_symbol("free");
		fo.n += fo.n < 64;
	}

	what = !__race_threads[cur->tid]->vptr ? uaf ? "heap-use-after-free" : "data race" :
	       uaf ? "heap-use-after-free (virtual call vs free)" :
	       "data race on vptr (ctor/dtor vs virtual call)";
	put("==================\nWARNING: ThreadSanitizer: %s (green --race)\n", what);
	access_line("", cur, 0, &fc, &ms);
	access_line("Previous ", old, uaf, &fo, &ms);
	location(cur->addr, var, sizeof var, &alloc_tid);
	if (__race_have_suppressions()) {
		if (__race_suppressed("race", var) || suppressed_frames("race", &fc, 0) ||
		    suppressed_frames("race", &fo, 0) || suppressed_frames("race_top", &fc, 1) ||
		    suppressed_frames("race_top", &fo, 1)) {
			outn = 0;
			return;
		}
	}
	mutex_lines(&ms);
	threads[nt++] = cur->tid;
	if (old->tid != cur->tid) threads[nt++] = old->tid;
	if (alloc_tid != (unsigned)-1 && alloc_tid != cur->tid && alloc_tid != old->tid)
		threads[nt++] = alloc_tid;
	for (i = 0; i < nt; i++)
		if (threads[i] < __race_nthreads) thread_line(threads[i]);
	schedule_line();
	summary(what, &fc);
	put("==================\n");
	__race_nreports++;
	flush();
	if (__race_opt.halt_on_error) die();
}

/* ---- thread leaks: at exit, the threads that finished unjoined and
 * undetached, one report per creation site */
hidden void __race_report_leaks(void)
{
	unsigned i, j;
	char *done;
	if (!__race_opt.report_bugs || !__race_opt.report_thread_leaks) return;
	done = __race_alloc(__race_nthreads + 1);
	for (i = 1; i < __race_nthreads; i++) {
		struct race_thread *r = __race_threads[i];
		unsigned more = 0;
		struct frames f;
		if (done[i] || !r->created || r->joined || r->detached ||
		    !(r->exited || (r->gid && !live_green(r))))
			continue;
		for (j = i + 1; j < __race_nthreads; j++) {
			struct race_thread *s = __race_threads[j];
			if (!done[j] && s->created && !s->joined && !s->detached &&
			    (s->exited || (s->gid && !live_green(s))) &&
			    s->create_node == r->create_node && s->create_pc == r->create_pc) {
				done[j] = 1;
				more++;
			}
		}
		frames_of(r->create_node, r->create_pc, 1, &f);
		if (__race_have_suppressions() && suppressed_frames("thread", &f, 0)) continue;
		put("==================\nWARNING: ThreadSanitizer: thread leak (green --race)\n");
		thread_line(i);
		if (more) put("  And %u more similar thread leaks.\n\n", more);
		/* the creation's caller, not pthread_create */
		if (f.n > 1) {
			memmove(f.a, f.a + 1, (f.n - 1) * sizeof *f.a);
			f.n--;
		}
		summary("thread leak", &f);
		put("==================\n");
		__race_nreports++;
		flush();
	}
}

/* ---- the exit status: exit() and _exit() both end in _Exit */
void __real__Exit(int) __attribute__((noreturn));

static int finish(int status)
{
	__race_report_leaks();
	if (__race_nreports) {
		put("ThreadSanitizer: reported %d warning%s (green --race)\n", __race_nreports,
		    __race_nreports == 1 ? "" : "s");
		flush();
		status = __race_opt.exitcode;
	}
	return status;
}

static void die(void)
{
	__real__Exit(finish(0));
}

void __wrap__Exit(int status)
{
	/* (not in posix_spawn's child, which shares the parent's memory) */
	if (!green_vfork_child()) {
		race_enter();
		__race_init();
		status = finish(status);
	}
	__real__Exit(status);
}
