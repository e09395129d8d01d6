/*
 * dlopen.c — dlopen in green's libc.so (both modes): musl's, after a
 * look at the object it is asked to load, so that an object built for
 * glibc is refused with a reason instead of being loaded.
 *
 * musl maps the name libc.so.6 to itself, so a glibc plugin (`gcc
 * -shared`) would load, bind to musl's symbols and then meet musl's
 * structures where it expects glibc's: a crash, or worse, far from the
 * dlopen.  dlopen answers NULL instead, dlerror saying which object and
 * why (src/dyn/elfcheck.h: its DT_NEEDED names glibc's libc.so.6).  The
 * object named is found as musl's loader finds it: a name with a slash
 * as it is, else along LD_LIBRARY_PATH (unless the program runs set-id),
 * the executable's run path, then the default path; one found nowhere
 * is left to musl, whose error says so.  Only the named object is
 * looked at, not the objects it needs in turn.
 *
 * musl's dlopen is __real_dlopen here: green's libc.so is linked with
 * musl's renamed and this one's __wrap_dlopen made dlopen
 * (tools/wraps.sh), as green's other members that stand in front of
 * musl's.  A static program has no dlopen worth the look.
 */

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libc.h"
#include "dynlink.h"
#include "../dyn/elfcheck.h"

void *__real_dlopen(const char *, int);

/* fd of name in the ':'-separated list of directories dirs, its path in
 * buf; -1 when none has it */
static int open_along(const char *name, const char *dirs, char *buf, size_t len)
{
	while (dirs && *dirs) {
		size_t n = strcspn(dirs, ":\n");
		if (n && (size_t)snprintf(buf, len, "%.*s/%s", (int)n, dirs, name) < len) {
			int fd = open(buf, O_RDONLY | O_CLOEXEC);
			if (fd >= 0) return fd;
		}
		dirs += n;
		dirs += !!*dirs;
	}
	return -1;
}

/* The executable's DT_RUNPATH, else its DT_RPATH (the first object
 * dl_iterate_phdr reports; musl leaves the dynamic section unrelocated,
 * so a string table's address is the object's base plus the entry) */
static int main_runpath(struct dl_phdr_info *info, size_t size, void *out)
{
	const ElfW(Dyn) *d = 0;
	const char *strtab = 0;
	size_t rpath = 0, runpath = 0;

	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			d = (const void *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	for (; d && d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_STRTAB) strtab = (const char *)(info->dlpi_addr + d->d_un.d_ptr);
		if (d->d_tag == DT_RPATH) rpath = d->d_un.d_val + 1;
		if (d->d_tag == DT_RUNPATH) runpath = d->d_un.d_val + 1;
	}
	if (strtab && (runpath || rpath))
		*(const char **)out = strtab + (runpath ? runpath : rpath) - 1;
	return 1;   /* the first object only */
}

static int find(const char *name, char *buf, size_t len)
{
	const char *run = 0, *env;
	int fd = -1;

	if (strchr(name, '/')) return open(name, O_RDONLY | O_CLOEXEC);
	if (strlen(name) > NAME_MAX) return -1;
	if (!libc.secure && (env = getenv("LD_LIBRARY_PATH"))) fd = open_along(name, env, buf, len);
	if (fd < 0) {
		dl_iterate_phdr(main_runpath, &run);
		if (run && !strstr(run, "$")) fd = open_along(name, run, buf, len);   /* $ORIGIN: left to musl */
	}
	if (fd < 0) fd = open_along(name, "/lib:/usr/local/lib:/usr/lib", buf, len);
	return fd;
}

void *__wrap_dlopen(const char *file, int mode)
{
	char buf[PATH_MAX], why[160];
	int fd, kind;

	if (file && (fd = find(file, buf, sizeof buf)) >= 0) {
		kind = green_elf_check(fd, why, sizeof why, 0, 0);
		close(fd);
		if (kind == GREEN_ELF_GLIBC) {
			__dl_seterr("Error loading shared library %s: %s; "
			            "green loads objects built with green-cc -shared", file, why);
			return 0;
		}
	}
	return __real_dlopen(file, mode);
}
