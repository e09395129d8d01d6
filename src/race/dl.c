/*
 * dl.c — dlopen of the libc's own names in a --race program
 * (docs/race.md).
 *
 * A static program has no loader: musl's dlopen fails, and a program
 * that takes a libc function through dlopen("libpthread.so.0") and dlsym
 * (as ThreadSanitizer's own tests do, to reach a barrier the detector
 * does not see) would call a null pointer.  Under --race, dlopen of a name
 * musl's dynamic loader keeps for the libc itself (lib + c, pthread, rt,
 * m, dl, util, xnet, resolv or crypt, then .so, with or without a
 * version) gives a handle to the program, and dlsym on that handle finds
 * the program's own definition in its symbol table: the libc's entry
 * point itself, not the detector's wrapper, just as a libc reached through
 * the loader is not the interposed one.  Every other dlopen is the libc's.
 */
#include <dlfcn.h>
#include <string.h>
#include "race.h"

static char self;   /* the handle */

static int libc_name(const char *file)
{
	static const char *const names[] = {
		"c", "pthread", "rt", "m", "dl", "util", "xnet", "resolv", "crypt",
	};
	const char *b = strrchr(file, '/');
	size_t i, n;
	b = b ? b + 1 : file;
	if (strncmp(b, "lib", 3)) return 0;
	b += 3;
	for (i = 0; i < sizeof names / sizeof *names; i++) {
		n = strlen(names[i]);
		if (!strncmp(b, names[i], n) && !strncmp(b + n, ".so", 3) && (!b[n + 3] || b[n + 3] == '.'))
			return 1;
	}
	return 0;
}

void *__real_dlopen(const char *, int);
void *__wrap_dlopen(const char *file, int mode)
{
	if (file && libc_name(file)) return &self;
	return __real_dlopen(file, mode);
}

void *__real_dlsym(void *restrict, const char *restrict);
void *__wrap_dlsym(void *restrict h, const char *restrict name)
{
	void *p;
	if (h != &self) return __real_dlsym(h, name);
	race_enter();
	p = __race_symbol(name);
	race_leave();
	return p ? p : __real_dlsym(h, name);   /* the libc's error for dlerror */
}

int __real_dlclose(void *);
int __wrap_dlclose(void *h)
{
	return h == &self ? 0 : __real_dlclose(h);
}
