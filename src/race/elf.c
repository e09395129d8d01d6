/*
 * elf.c — the executable's own ELF image, for reports and dlsym
 * (docs/race.md): /proc/self/exe is mapped once, when first needed, and
 * read for its symbol table (functions and objects by address, and by
 * name) and its sections (.debug_line for dwarf.c).  C++ names are
 * demangled when the program links the C++ runtime's demangler.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "race.h"

char *__cxa_demangle(const char *, char *, size_t *, int *) __attribute__((__weak__));

static const unsigned char *image;
static const Elf64_Shdr *sh;
static unsigned nsh;
static const char *shstr;
static const Elf64_Sym *syms;
static size_t nsyms;
static const char *strs;
static char exe[256] = "?";
static int tried;
/* where the executable was loaded: 0 for a fixed-address one; a static
 * PIE's (green-cc -static-pie) symbols are relative to its ELF header,
 * which the linker names __ehdr_start */
extern const Elf64_Ehdr __ehdr_start __attribute__((__weak__, __visibility__("hidden")));
static uintptr_t bias;

static void load(void)
{
	int fd;
	struct stat st;
	const Elf64_Ehdr *eh;
	unsigned i;
	long n;
	if (tried) return;
	tried = 1;
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		char *b;
		exe[n] = 0;
		if ((b = strrchr(exe, '/'))) memmove(exe, b + 1, strlen(b));
	}
	if ((fd = __real_open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) < 0) return;
	if (fstat(fd, &st) || (image = mmap(0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		image = 0;
		__real_close(fd);
		return;
	}
	__real_close(fd);
	eh = (const Elf64_Ehdr *)image;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    !eh->e_shoff || eh->e_shstrndx >= eh->e_shnum) {
		image = 0;
		return;
	}
	if (eh->e_type == ET_DYN) bias = (uintptr_t)&__ehdr_start;
	sh = (const Elf64_Shdr *)(image + eh->e_shoff);
	nsh = eh->e_shnum;
	shstr = (const char *)image + sh[eh->e_shstrndx].sh_offset;
	for (i = 0; i < nsh; i++)
		if (sh[i].sh_type == SHT_SYMTAB && sh[i].sh_link < nsh) {
			syms = (const Elf64_Sym *)(image + sh[i].sh_offset);
			nsyms = sh[i].sh_size / sizeof *syms;
			strs = (const char *)image + sh[sh[i].sh_link].sh_offset;
		}
}

/* the executable's load address (0 unless it is a PIE): a runtime
 * address less it is an address of the file's symbols and DWARF */
hidden uintptr_t __race_bias(void)
{
	load();
	return bias;
}

hidden const char *__race_exe_name(void)
{
	load();
	return exe;
}

hidden const void *__race_section(const char *name, size_t *size)
{
	unsigned i;
	load();
	for (i = 0; i < nsh; i++)
		if (!strcmp(shstr + sh[i].sh_name, name) && sh[i].sh_type != SHT_NOBITS &&
		    !(sh[i].sh_flags & SHF_COMPRESSED)) {
			*size = sh[i].sh_size;
			return image + sh[i].sh_offset;
		}
	return 0;
}

/* Of two names for one address, the one a person knows: not the libc's
 * internal __name, and global before local. */
static int better(const Elf64_Sym *a, const Elf64_Sym *b)
{
	const char *na = strs + a->st_name, *nb = strs + b->st_name;
	int ia = na[0] == '_' && na[1] == '_', ib = nb[0] == '_' && nb[1] == '_';
	if (ia != ib) return ib;
	return ELF64_ST_BIND(a->st_info) != STB_LOCAL && ELF64_ST_BIND(b->st_info) == STB_LOCAL;
}

/* The symbol of type `type` containing address a (size 0 symbols match
 * their address only). */
static const Elf64_Sym *symbol_at(uintptr_t a, int type)
{
	const Elf64_Sym *best = 0;
	size_t i;
	load();
	for (i = 0; i < nsyms; i++) {
		const Elf64_Sym *s = &syms[i];
		if (ELF64_ST_TYPE(s->st_info) != type || !s->st_value || !s->st_name) continue;
		if (a < s->st_value || a - s->st_value >= (s->st_size ? s->st_size : 1)) continue;
		if (!best || s->st_value > best->st_value ||
		    (s->st_value == best->st_value && better(s, best)))
			best = s;
	}
	return best;
}

hidden const char *__race_demangle(const char *n, char *buf, size_t len)
{
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

static const char *name_of(const Elf64_Sym *s, char *buf, size_t len)
{
	return __race_demangle(strs + s->st_name, buf, len);
}

hidden const char *__race_func_at(uintptr_t pc, char *buf, size_t len, uintptr_t *start)
{
	const Elf64_Sym *s = symbol_at(pc - __race_bias(), STT_FUNC);
	if (!s) return 0;
	*start = s->st_value + bias;
	return name_of(s, buf, len);
}

hidden const char *__race_object_at(uintptr_t a, char *buf, size_t len, uintptr_t *start,
                                    size_t *size)
{
	const Elf64_Sym *s = symbol_at(a - __race_bias(), STT_OBJECT);
	if (!s) return 0;
	*start = s->st_value + bias;
	*size = s->st_size;
	return name_of(s, buf, len);
}

/* A defined function or object by name (dlsym on the program itself). */
hidden void *__race_symbol(const char *name)
{
	const Elf64_Sym *best = 0;
	size_t i;
	load();
	for (i = 0; i < nsyms; i++) {
		const Elf64_Sym *s = &syms[i];
		int t = ELF64_ST_TYPE(s->st_info);
		if ((t != STT_FUNC && t != STT_OBJECT) || !s->st_value || s->st_shndx == SHN_UNDEF ||
		    strcmp(strs + s->st_name, name))
			continue;
		if (!best || ELF64_ST_BIND(best->st_info) == STB_LOCAL) best = s;
	}
	return best ? (void *)(uintptr_t)(best->st_value + bias) : 0;
}
