/*
 * report.c — the race report, its suppressions, and the exit status
 * (docs/race.md).
 *
 * A report names both accesses (kind, size, address, thread, stack), the
 * variable (a global's name from the program's symbol table, or the heap
 * block with the stack that allocated it), the two threads' creation
 * sites, and under GREEN_SCHED the schedule so far, then a SUMMARY line.
 * Functions are named from the executable's own ELF symbol table
 * (/proc/self/exe; C++ names demangled when the program links the C++
 * runtime's demangler); file and line are left to `addr2line -e PROGRAM
 * ADDRESS`, each frame giving its address.
 *
 * A race is reported once: a second race between the same two program
 * locations, or on a granule already reported, is dropped.
 * GREEN_RACE_SUPPRESSIONS names a file of `race:PATTERN` lines; a race
 * whose stacks or variable name match one is not reported.  If any race
 * was reported, the process exits with status 66 (GREEN_RACE_EXITCODE
 * changes it) whatever its own status; a forked child starts with none
 * reported.
 *
 * Written with raw write(2) calls: stdio may be locked by a parked thread.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "race.h"
#include "base/report.h"
#include "base/gconfig.h"

hidden int __race_nreports;
hidden void __green_explore_where(uint64_t *steps, uint64_t *hash);
char *__cxa_demangle(const char *, char *, size_t *, int *) __attribute__((__weak__));

/* ---- output */
static char out[16384];
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

/* ---- symbols: the executable's .symtab */
static const Elf64_Sym *syms;
static size_t nsyms;
static const char *strs;
static int syms_tried;
/* where the executable was loaded: 0 for a fixed-address one; a static
 * PIE's (green-cc -static-pie) symbols are relative to its ELF header,
 * which the linker names __ehdr_start */
extern const Elf64_Ehdr __ehdr_start __attribute__((__weak__, __visibility__("hidden")));
static uintptr_t bias;

static void load_symbols(void)
{
	int fd;
	struct stat st;
	const unsigned char *f;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	unsigned i;
	if (syms_tried) return;
	syms_tried = 1;
	if ((fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) < 0) return;
	if (fstat(fd, &st) || (f = mmap(0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		close(fd);
		return;
	}
	close(fd);
	eh = (const Elf64_Ehdr *)f;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64) return;
	if (eh->e_type == ET_DYN) bias = (uintptr_t)&__ehdr_start;
	sh = (const Elf64_Shdr *)(f + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type == SHT_SYMTAB && sh[i].sh_link < eh->e_shnum) {
			syms = (const Elf64_Sym *)(f + sh[i].sh_offset);
			nsyms = sh[i].sh_size / sizeof *syms;
			strs = (const char *)f + sh[sh[i].sh_link].sh_offset;
			return;
		}
}

/* The symbol of type `type` containing address a (size 0 symbols match
 * their address only). */
static const Elf64_Sym *symbol_at(uintptr_t a, int type)
{
	const Elf64_Sym *best = 0;
	size_t i;
	load_symbols();
	a -= bias;
	for (i = 0; i < nsyms; i++) {
		const Elf64_Sym *s = &syms[i];
		if (ELF64_ST_TYPE(s->st_info) != type || !s->st_value) continue;
		if (a >= s->st_value && a - s->st_value < (s->st_size ? s->st_size : 1))
			if (!best || s->st_value > best->st_value) best = s;
	}
	return best;
}

static const char *name_of(const Elf64_Sym *s, char *buf, size_t len)
{
	const char *n = strs + s->st_name;
	if (__cxa_demangle && n[0] == '_' && n[1] == 'Z') {
		int st;
		char *d = __cxa_demangle(n, 0, 0, &st);
		if (d) {
			snprintf(buf, len, "%s", d);
			free(d);
			return buf;
		}
	}
	return n;
}

/* The function at pc, for stacks, summaries and suppressions. */
static const char *func_at(uintptr_t pc, char *buf, size_t len, uintptr_t *off)
{
	const Elf64_Sym *s = symbol_at(pc, STT_FUNC);
	if (!s) {
		*off = 0;
		return "??";
	}
	*off = pc - bias - s->st_value;
	return name_of(s, buf, len);
}

static uintptr_t addr_of(uint32_t pc)
{
	return __race_text + pc;
}

/* ---- suppressions: `race:PATTERN` lines; PATTERN matches a substring,
 * `*` any run of characters, a leading `^` the start and a trailing `$`
 * the end */
static char *supp[256];
static int nsupp, supp_read;

static int glob(const char *p, const char *s, int anchored)
{
	if (!*p) return !anchored || !*s;
	if (*p == '$' && !p[1]) return !*s;
	if (*p == '*') {
		for (;; s++) {
			if (glob(p + 1, s, anchored)) return 1;
			if (!*s) return 0;
		}
	}
	return *s && *p == *s && glob(p + 1, s + 1, anchored);
}

static int matches(const char *pat, const char *s)
{
	if (*pat == '^') return glob(pat + 1, s, 0);
	for (; *s; s++)
		if (glob(pat, s, 0)) return 1;
	return !*pat;
}

static void read_suppressions(void)
{
	const char *path = getenv("GREEN_RACE_SUPPRESSIONS");
	static char text[16384];
	int fd;
	long n;
	char *p, *e;
	if (supp_read) return;
	supp_read = 1;
	if (!path || !*path) return;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		__green_say("green: race detector: cannot open GREEN_RACE_SUPPRESSIONS file %s\n", path);
		return;
	}
	n = read(fd, text, sizeof text - 1);
	close(fd);
	if (n <= 0) return;
	text[n] = 0;
	for (p = text; *p; p = e) {
		char *q;
		e = p + strcspn(p, "\n");
		if (*e) *e++ = 0;
		while (*p == ' ' || *p == '\t') p++;
		for (q = p + strlen(p); q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'); ) *--q = 0;
		if (!*p || *p == '#') continue;
		if (strncmp(p, "race:", 5) || !p[5]) {
			__green_say("green: race detector: %s: ignored line '%s' (want race:PATTERN)\n", path, p);
			continue;
		}
		if (nsupp < (int)(sizeof supp / sizeof *supp)) supp[nsupp++] = p + 5;
	}
}

static int suppressed_name(const char *name)
{
	int i;
	for (i = 0; i < nsupp; i++)
		if (matches(supp[i], name)) return 1;
	return 0;
}

static int suppressed_stack(uint32_t node, uint32_t pc)
{
	char buf[256];
	uintptr_t off;
	if (pc != RACE_PC_FREE && suppressed_name(func_at(addr_of(pc), buf, sizeof buf, &off))) return 1;
	while (node) {
		__race_node_get(node, &node, &pc);
		if (suppressed_name(func_at(addr_of(pc), buf, sizeof buf, &off))) return 1;
	}
	return 0;
}

/* ---- the report's parts */

static void frame(int i, uintptr_t pc)
{
	char buf[256];
	uintptr_t off;
	const char *f = func_at(pc, buf, sizeof buf, &off);
	put("    #%d %s+0x%lx (0x%lx)\n", i, f, (unsigned long)off, (unsigned long)pc);
}

/* A stack: `first` (a library entry the access went through), then the
 * access's pc, then the interned call sites; the library's thread-start
 * frames (green's and the detector's) are left out. */
static void stack(const char *first, uint32_t node, uint32_t pc)
{
	int i = 0;
	if (first) put("    #%d %s\n", i++, first);
	if (pc != RACE_PC_FREE) frame(i++, addr_of(pc));
	else if (!first) put("    #%d free\n", i++);
	while (node) {
		char buf[256];
		uintptr_t off;
		__race_node_get(node, &node, &pc);
		const char *f = func_at(addr_of(pc), buf, sizeof buf, &off);
		if (!strncmp(f, "__race_", 7) || !strcmp(f, "__green_thread_start")) continue;
		frame(i++, addr_of(pc));
	}
	if (!i) put("    (no stack)\n");
}

static struct green_thread *live_green(const struct race_thread *r)
{
	struct green_thread *g;
	if (!r->gid) return 0;
	for (g = __green_all; g; g = g->all_next)
		if (g == r->g && g->id == r->gid && g->state != GS_EXITED) return g;
	return 0;
}

static void thread_name(const struct race_thread *r, char *buf, size_t len)
{
	struct green_thread *g = live_green(r);
	const char *name = g ? __green_name(g) : r->name;
	if (!r->gid) snprintf(buf, len, "a thread not yet started");
	else if (name[0]) snprintf(buf, len, "thread %u \"%s\"", r->gid, name);
	else snprintf(buf, len, "thread %u", r->gid);
}

static void access_line(const char *prefix, const struct race_access *a, uintptr_t addr)
{
	char who[64];
	thread_name(__race_threads[a->tid], who, sizeof who);
	if (a->pc == RACE_PC_FREE) {
		put("  %sfree of the block at 0x%lx by %s:\n", prefix, (unsigned long)addr, who);
		stack(0, a->node, a->pc);
		return;
	}
	char kind[16];
	snprintf(kind, sizeof kind, "%s%s", a->atomic ? "atomic " : "", a->write ? "write" : "read");
	if (!*prefix) kind[0] += 'A' - 'a';
	put("  %s%s of size %u at 0x%lx by %s:\n", prefix, kind, a->size, (unsigned long)addr, who);
	stack(0, a->node, a->pc);
}

static void location(uintptr_t addr, char *var, size_t len)
{
	struct race_block b;
	const Elf64_Sym *s = symbol_at(addr, STT_OBJECT);
	char who[64];
	var[0] = 0;
	if (s) {
		char buf[256];
		snprintf(var, len, "%s", name_of(s, buf, sizeof buf));
		put("  Location is global '%s' of size %lu at 0x%lx\n", var,
		    (unsigned long)s->st_size, (unsigned long)(s->st_value + bias));
		return;
	}
	if (__race_block_find(addr, &b)) {
		thread_name(__race_threads[b.tid], who, sizeof who);
		put("  Location is heap block of size %lu at 0x%lx%s allocated by %s:\n",
		    (unsigned long)b.size, (unsigned long)b.addr, b.freed_by ? " (freed)" : "", who);
		stack("malloc", b.node, b.pc);
	}
}

static void creation(const struct race_thread *r)
{
	char who[64], by[64];
	thread_name(r, who, sizeof who);
	if (r->tid == 0) return;   /* the initial thread */
	who[0] = who[0] == 't' ? 'T' : who[0];
	thread_name(__race_threads[r->creator], by, sizeof by);
	put("  %s (%s) created by %s at:\n", who, live_green(r) ? "running" : "finished", by);
	stack("pthread_create", r->create_node, r->create_pc);
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

hidden void __race_report(uintptr_t addr, const struct race_access *cur,
                          const struct race_access *old)
{
	uint32_t a = cur->pc, b = old->pc;
	uint64_t pair = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
	char var[256], buf[256];
	uintptr_t off;
	size_t n;

	if (seen(seen_pairs, pair << 1) | seen(seen_addrs, (addr & ~(uintptr_t)7) << 1)) return;
	read_suppressions();
	if (nsupp) {
		location(addr, var, sizeof var);
		outn = 0;
		if ((var[0] && suppressed_name(var)) || suppressed_stack(cur->node, cur->pc) ||
		    suppressed_stack(old->node, old->pc))
			return;
	}
	__race_nreports++;
	put("==================\nWARNING: data race (green --race)\n");
	access_line("", cur, addr);
	put("\n");
	access_line("Previous ", old, addr);
	put("\n");
	n = outn;
	location(addr, var, sizeof var);
	if (outn != n) put("\n");
	creation(__race_threads[cur->tid]);
	creation(__race_threads[old->tid]);
	if (__green_xmode) {
		uint64_t steps, hash;
		__green_explore_where(&steps, &hash);
		put("  Schedule: GREEN_SCHED=%s, at step %llu, hash %016llx (the same setting replays it)\n",
		    __green_config.sched_text, (unsigned long long)steps, (unsigned long long)hash);
	}
	put("SUMMARY: green --race: data race in %s\n==================\n",
	    func_at(addr_of(cur->pc), buf, sizeof buf, &off));
	flush();
}

/* ---- the exit status: exit() and _exit() both end in _Exit */
void __real__Exit(int) __attribute__((noreturn));
void __wrap__Exit(int status)
{
	/* (not in posix_spawn's child, which shares the parent's memory) */
	if (__race_nreports && !green_vfork_child()) {
		const char *e = getenv("GREEN_RACE_EXITCODE");
		put("green: race detector: reported %d data race%s\n", __race_nreports,
		    __race_nreports == 1 ? "" : "s");
		flush();
		status = e && *e ? atoi(e) : 66;
	}
	__real__Exit(status);
}
