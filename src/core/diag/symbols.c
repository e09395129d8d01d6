/*
 * symbols.c — addresses named for people, in the deadlock report
 * (deadlock.c): a variable by the program's own symbol for it, and a
 * parked thread by the frame of the program it waits in.
 *
 * The names come from the executable's symbol table (.symtab), read
 * from /proc/self/exe when a report first asks, and never before: a
 * program that reports nothing pays nothing.  The file is mapped
 * read-only and left mapped (the report ends in abort).  A stripped
 * program has no table, and every address is then named by its number
 * alone.  Only system calls and the mapping: a report may be made with
 * stdio locked by a parked thread.
 *
 * A variable: the data symbol (STT_OBJECT) that holds the address, as
 * 'ledger', or 'accounts+0x28' for a member of a larger object.
 *
 * A frame (x86_64): a parked thread's stack is read upwards from its
 * saved stack pointer (a cold copied stack from its save area).  The
 * frames of green and the libc come first (the switch, the scheduler,
 * the wait, the entry point such as pthread_mutex_lock, which may have
 * jumped on to a static function and left no frame); the first word
 * that is a return address from a direct call (call rel32, decoded) to
 * a libc entry point — a visible global function with a reserved name
 * or a threads call's — made by a function of the program is where the
 * program called to wait: `take_vault_then_ledger+0x26`.  This is a
 * scan, not an unwinding (there are no unwind tables to trust); gdb
 * shows the whole stack (docs/debugging.md).  Other CPUs name no frame.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "base/gthread.h"
#include "base/valgrind-glue.h"
#include "diag/diag.h"

#if UINTPTR_MAX > 0xffffffffu
typedef Elf64_Ehdr Ehdr;
typedef Elf64_Shdr Shdr;
typedef Elf64_Phdr Phdr;
typedef Elf64_Sym Sym;
#define SYM_TYPE ELF64_ST_TYPE
#define SYM_BIND ELF64_ST_BIND
#define SYM_VIS ELF64_ST_VISIBILITY
#define OUR_CLASS ELFCLASS64
#else
typedef Elf32_Ehdr Ehdr;
typedef Elf32_Shdr Shdr;
typedef Elf32_Phdr Phdr;
typedef Elf32_Sym Sym;
#define SYM_TYPE ELF32_ST_TYPE
#define SYM_BIND ELF32_ST_BIND
#define SYM_VIS ELF32_ST_VISIBILITY
#define OUR_CLASS ELFCLASS32
#endif

/* ---- the executable's symbol table */

static const Sym *syms;
static size_t nsyms;
static const char *strs;
static uintptr_t bias;          /* load address less link address (a PIE: the overlay) */
static int loaded;

/* Where the file's program headers were linked to go, against where
 * the kernel put them (AT_PHDR): the load bias, 0 for a static program. */
static uintptr_t load_bias(const unsigned char *f, const Ehdr *eh)
{
	const Phdr *ph = (const Phdr *)(f + eh->e_phoff);
	uintptr_t at = getauxval(AT_PHDR);
	for (unsigned i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_PHDR) return at - ph[i].p_vaddr;
	for (unsigned i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0) return at - (ph[i].p_vaddr + eh->e_phoff);
	return 0;
}

static void load(void)
{
	long fd, size;
	const unsigned char *f;
	const Ehdr *eh;
	const Shdr *sh;

	if (loaded) return;
	loaded = 1;
	fd = __syscall(SYS_openat, AT_FDCWD, "/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0) return;
	size = __syscall(SYS_lseek, fd, 0, SEEK_END);
	f = size > (long)sizeof(Ehdr) ? mmap(0, size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	__syscall(SYS_close, fd);
	if (f == MAP_FAILED) return;
	eh = (const Ehdr *)f;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != OUR_CLASS ||
	    eh->e_shoff + (uintptr_t)eh->e_shnum * sizeof(Shdr) > (uintptr_t)size)
		return;
	sh = (const Shdr *)(f + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum) continue;
		if (sh[i].sh_offset + sh[i].sh_size > (uintptr_t)size) return;
		syms = (const Sym *)(f + sh[i].sh_offset);
		nsyms = sh[i].sh_size / sizeof(Sym);
		strs = (const char *)f + sh[sh[i].sh_link].sh_offset;
		bias = load_bias(f, eh);
		return;
	}
}

/* The symbol of type `type` that holds a (one of size 0 only at its own
 * address), the highest-addressed if several do. */
static const Sym *symbol_at(uintptr_t a, int type)
{
	const Sym *best = 0;
	load();
	for (size_t i = 0; i < nsyms; i++) {
		const Sym *s = &syms[i];
		uintptr_t at = s->st_value + bias;
		if (SYM_TYPE(s->st_info) != type || !s->st_value || a < at) continue;
		if (a - at < (s->st_size ? s->st_size : 1) && (!best || s->st_value > best->st_value))
			best = s;
	}
	return best;
}

/* "name" or "name+0xoff" of the data symbol holding a; 0 if none. */
hidden int __green_data_name(const void *a, char *buf, size_t len)
{
	const Sym *s = symbol_at((uintptr_t)a, STT_OBJECT);
	uintptr_t off;
	if (!s) return 0;
	off = (uintptr_t)a - (s->st_value + bias);
	if (off) snprintf(buf, len, "%s+%#lx", strs + s->st_name, (unsigned long)off);
	else snprintf(buf, len, "%s", strs + s->st_name);
	return 1;
}

/* ---- the frame a parked thread waits in */

/* The green and libc entry points a program calls to wait, and the
 * names of the libc's and green's own functions: a reserved name, or a
 * POSIX or C11 threads call. */
static int libc_name(const char *n)
{
	static const char *const prefix[] = {
		"pthread_", "sem_", "mtx_", "cnd_", "thrd_", "call_once", "sched_yield",
	};
	if (n[0] == '_' && n[1] != 'Z') return 1;   /* reserved; _Z: a C++ name */
	for (size_t i = 0; i < sizeof prefix / sizeof *prefix; i++)
		if (!strncmp(n, prefix[i], strlen(prefix[i]))) return 1;
	return 0;
}

#if defined(__x86_64__)
/* Is the function at s a libc entry point: has it a visible global
 * name that is reserved or a threads call's (pthread_mutex_lock, whose
 * other name __pthread_mutex_lock is hidden)? */
static int entry_point(const Sym *s)
{
	for (size_t i = 0; i < nsyms; i++) {
		const Sym *o = &syms[i];
		if (o->st_value == s->st_value && SYM_TYPE(o->st_info) == STT_FUNC &&
		    SYM_BIND(o->st_info) != STB_LOCAL && SYM_VIS(o->st_other) == STV_DEFAULT &&
		    libc_name(strs + o->st_name))
			return 1;
	}
	return 0;
}
#endif

/* Is a a return address from a call to a libc entry point?  x86_64
 * decodes the call before it (call rel32: the target is known); other
 * CPUs do not name the frame (no stack is read there). */
static int calls_entry(uintptr_t a)
{
#if defined(__x86_64__)
	const unsigned char *p = (const unsigned char *)a;
	int32_t rel;
	const Sym *to;
	if (p[-5] != 0xe8) return 0;
	memcpy(&rel, p - 4, sizeof rel);
	to = symbol_at(a + rel, STT_FUNC);
	return to && entry_point(to);
#else
	(void)a;
	return 0;
#endif
}

#if defined(__x86_64__)
#define NAMES_FRAMES 1
#else
#define NAMES_FRAMES 0
#endif

/* The word at address a of t's stack [lo, hi), or 0 past it: from the
 * save area while a copied thread is cold. */
static uintptr_t stack_word(struct green_thread *t, uintptr_t lo, uintptr_t hi, uintptr_t a)
{
	uintptr_t w = 0;
	if (a < lo || a + sizeof w > hi) return 0;
	if (t->stack_mode == GREEN_STACK_COPIED && !t->hot && t != __green_cur) {
		if (a - lo + sizeof w > t->save_len) return 0;
		memcpy(&w, (char *)t->save + (a - lo), sizeof w);
	} else {
		memcpy(&w, (void *)a, sizeof w);
	}
	/* a scan reads the padding of frames too: memcheck is told so */
	GREEN_VG_MAKE_DEFINED(&w, sizeof w);
	return w;
}

/* Where the program called into the libc to wait, as "func+0xoff":
 * 1, or 0 if no such frame was found (no symbols, or none in reach).
 * The running thread's stack is read from `from`, an address in the
 * frame of the report's first function (below it, the report's own
 * buffers hold stale addresses of code). */
hidden int __green_wait_frame(struct green_thread *t, const void *from, char *buf, size_t len)
{
	enum { REACH = 2048 };   /* words looked at, at most */
	uintptr_t lo, hi, a, w;

	load();
	if (!nsyms || !NAMES_FRAMES) return 0;
	lo = t == __green_cur ? (uintptr_t)from : (uintptr_t)t->sp + GREEN_ARCH_STACK_BIAS;
	hi = t == &__green_main ? (uintptr_t)green_initial_stack_addr()
	                        : (uintptr_t)t->stack_lo + t->stack_size;
	lo &= -(uintptr_t)sizeof(uintptr_t);
	if (hi <= lo) return 0;
	for (a = lo; a < hi && a < lo + REACH * sizeof w; a += sizeof w) {
		const Sym *s;
		const char *n;
		/* a return address into the program's function that called
		 * a libc entry point (which may have jumped on to a static
		 * function of its own, leaving no frame) */
		if (!(w = stack_word(t, lo, hi, a)) || !(s = symbol_at(w, STT_FUNC)))
			continue;
		n = strs + s->st_name;
		if (libc_name(n) || !calls_entry(w)) continue;
		snprintf(buf, len, "%s+%#lx", n, (unsigned long)(w - (s->st_value + bias)));
		return 1;
	}
	return 0;
}
