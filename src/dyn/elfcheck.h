/*
 * elfcheck.h — what an ELF file was linked for, from its headers alone:
 * green's dlopen (src/members/dlopen.c) asks before musl's loader maps
 * an object, and green-run (green-run.c) before it hands a program to a
 * loader.  Header-only, as the two are built apart (one inside the libc,
 * one as a program of the host).
 *
 *   green_elf_check(fd, why, len, interp, ilen)
 *       GREEN_ELF_MUSL    anything else: linked against a libc.so of
 *                         musl's (green's or musl's own: DT_NEEDED
 *                         libc.so), or against no libc
 *       GREEN_ELF_GLIBC   built for glibc: its interpreter is glibc's
 *                         ld-linux, or it needs glibc's libc.so.6
 *       GREEN_ELF_STATIC  an executable that needs no libc.so (static,
 *                         static-pie)
 *       GREEN_ELF_OTHER   not an ELF file of this CPU, or unreadable
 *   why (len bytes) says which, in words; interp (ilen bytes, may be 0)
 *   receives the interpreter's path, or "".
 *
 * glibc's objects are told by what they ask of the loader, not by their
 * code: a DT_NEEDED entry naming libc.so.6 (every object gcc links
 * against glibc has it, as its symbols' versions are glibc's), or a
 * program interpreter named ld-linux*.  musl maps the name libc.so.6 to
 * itself, so without this look such an object would be loaded and then
 * meet musl's structures where it expects glibc's.
 */
#ifndef GREEN_ELFCHECK_H
#define GREEN_ELFCHECK_H

#include <elf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { GREEN_ELF_MUSL, GREEN_ELF_GLIBC, GREEN_ELF_STATIC, GREEN_ELF_OTHER };

#if defined __x86_64__
#define GREEN_ELF_MACHINE EM_X86_64
#elif defined __m68k__
#define GREEN_ELF_MACHINE EM_68K
#else
#define GREEN_ELF_MACHINE EM_NONE
#endif

#if __SIZEOF_POINTER__ == 8
#define GREEN_ELFCLASS ELFCLASS64
typedef Elf64_Ehdr green_ehdr;
typedef Elf64_Phdr green_phdr;
typedef Elf64_Dyn green_dyn;
#else
#define GREEN_ELFCLASS ELFCLASS32
typedef Elf32_Ehdr green_ehdr;
typedef Elf32_Phdr green_phdr;
typedef Elf32_Dyn green_dyn;
#endif

#define GREEN_ELF_MAXPH 64     /* program headers looked at */
#define GREEN_ELF_MAXDYN 512   /* dynamic entries looked at */

/* The file offset of virtual address v, through the PT_LOAD headers;
 * -1 when no segment holds it. */
static long green_elf_offset(const green_phdr *ph, int n, unsigned long v)
{
	for (int i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && v >= ph[i].p_vaddr &&
		    v < ph[i].p_vaddr + ph[i].p_filesz)
			return (long)(ph[i].p_offset + (v - ph[i].p_vaddr));
	return -1;
}

/* glibc's libc, or its loader, by name */
static int green_elf_glibc_name(const char *s)
{
	return !strcmp(s, "libc.so.6") || !strncmp(s, "ld-linux", 8) ||
	       (strstr(s, "/ld-linux") != 0);
}

static int green_elf_check(int fd, char *why, size_t len, char *interp, size_t ilen)
{
	green_ehdr eh;
	green_phdr ph[GREEN_ELF_MAXPH];
	green_dyn dyn[GREEN_ELF_MAXDYN];
	char name[256] = "", glibc[64] = "";
	int i, nph, ndyn = 0, needs_libc = 0;
	long strtab = -1;
	unsigned long strtab_v = 0;

	if (interp && ilen) interp[0] = 0;
	if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != GREEN_ELFCLASS ||
	    eh.e_machine != GREEN_ELF_MACHINE || (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) ||
	    eh.e_phentsize != sizeof *ph) {
		snprintf(why, len, "not an ELF executable or shared object of this CPU");
		return GREEN_ELF_OTHER;
	}
	nph = eh.e_phnum < GREEN_ELF_MAXPH ? eh.e_phnum : GREEN_ELF_MAXPH;
	if (pread(fd, ph, nph * sizeof *ph, eh.e_phoff) != (ssize_t)(nph * sizeof *ph)) {
		snprintf(why, len, "its program headers cannot be read");
		return GREEN_ELF_OTHER;
	}
	for (i = 0; i < nph; i++) {
		if (ph[i].p_type == PT_INTERP) {
			size_t n = ph[i].p_filesz < sizeof name ? ph[i].p_filesz : sizeof name - 1;
			if (pread(fd, name, n, ph[i].p_offset) != (ssize_t)n) n = 0;
			name[n] = 0;
			if (interp && ilen) snprintf(interp, ilen, "%s", name);
		}
		if (ph[i].p_type == PT_DYNAMIC) {
			size_t n = ph[i].p_filesz / sizeof *dyn;
			if (n > GREEN_ELF_MAXDYN) n = GREEN_ELF_MAXDYN;
			if (pread(fd, dyn, n * sizeof *dyn, ph[i].p_offset) == (ssize_t)(n * sizeof *dyn))
				ndyn = (int)n;
		}
	}
	if (name[0] && green_elf_glibc_name(name)) {
		snprintf(why, len, "it was linked against glibc (its interpreter is %s)", name);
		return GREEN_ELF_GLIBC;
	}
	for (i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++)
		if (dyn[i].d_tag == DT_STRTAB) strtab_v = dyn[i].d_un.d_ptr;
	if (strtab_v) strtab = green_elf_offset(ph, nph, strtab_v);
	for (i = 0; strtab >= 0 && i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		char lib[64];
		ssize_t n;
		if (dyn[i].d_tag != DT_NEEDED) continue;
		n = pread(fd, lib, sizeof lib - 1, strtab + (long)dyn[i].d_un.d_val);
		lib[n > 0 ? n : 0] = 0;
		if (green_elf_glibc_name(lib) && (!glibc[0] || !strcmp(lib, "libc.so.6")))
			snprintf(glibc, sizeof glibc, "%s", lib);   /* libc.so.6 first */
		if (!strcmp(lib, "libc.so")) needs_libc = 1;
	}
	if (glibc[0]) {
		snprintf(why, len, "it was linked against glibc (it needs %s)", glibc);
		return GREEN_ELF_GLIBC;
	}
	if (!needs_libc && !name[0] && (eh.e_type == ET_EXEC || eh.e_entry)) {
		/* an executable without an interpreter: static, or a static PIE */
		snprintf(why, len, "it is statically linked (its libc is inside it)");
		return GREEN_ELF_STATIC;
	}
	snprintf(why, len, needs_libc ? "it is linked against a libc.so of musl's" : "it needs no libc");
	return GREEN_ELF_MUSL;
}

#endif
