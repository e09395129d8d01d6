/*
 * green-run — run a dynamically linked program on green threads or on
 * kernel threads, chosen at run time (docs/dynamic.md, man green-run).
 *
 *   green-run [--threads=green|1to1] PROGRAM [ARGS...]
 *
 * Like Solaris's alternate libthread, the program is not changed: the
 * choice is which libc.so it runs on.  green-run execs the loader of the
 * chosen tree, $libdir/green or $libdir/1to1 (each tree's libc.so is
 * its own loader: dynamic.am), and the loader runs PROGRAM with ARGS,
 * its argv[0] as given here.  Any program linked against a libc.so of
 * musl 1.2.3's runs so: one built with `green-cc --dynamic` in either
 * mode, or with Debian's musl-gcc.  A program that cannot is refused in
 * one line before anything runs (src/dyn/elfcheck.h): one built for
 * glibc, and a static one, whose libc is inside it.
 *
 * The trees are found relative to this program's own directory
 * (GREEN_RUN_LIBDIR, set by the build: the build tree's lib/, or the
 * installed package's library directory), so an installed tree can be
 * moved as green-cc's can.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elfcheck.h"

#ifndef GREEN_RUN_LIBDIR
#error "GREEN_RUN_LIBDIR names the trees' directory, relative to green-run's own"
#endif
#ifndef GREEN_RUN_LOADER
#error "GREEN_RUN_LOADER names the loader (ld-musl-CPU.so.1)"
#endif
#define VERSION_TEXT "green-run (green " GREEN_RUN_VERSION ")"

static const char *me = "green-run";

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [--threads=green|1to1] PROGRAM [ARGS...]\n"
	        "Runs a dynamically linked program on green threads (the default) or,\n"
	        "with --threads=1to1, on kernel threads: the same binary on the chosen\n"
	        "tree's libc.so (man green-run).\n", me);
}

/* PROGRAM as execvp would find it: as given when it has a slash, else
 * along PATH */
static int find(const char *prog, char *buf, size_t len)
{
	const char *path = getenv("PATH"), *p;

	if (strchr(prog, '/')) return snprintf(buf, len, "%s", prog) < (int)len ? 0 : -1;
	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; ; ) {
		size_t n = strcspn(p, ":");
		if ((size_t)snprintf(buf, len, "%.*s%s%s", (int)n, p, n ? "/" : "", prog) < len &&
		    access(buf, X_OK) == 0)
			return 0;
		if (!p[n]) break;
		p += n + 1;
	}
	return -1;
}

int main(int argc, char **argv)
{
	char self[PATH_MAX], prog[PATH_MAX], loader[PATH_MAX + 64], why[200], interp[256];
	const char *mode = "green";
	ssize_t n;
	int i = 1, fd, kind;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--threads=green") || !strcmp(argv[i], "--threads=1to1")) {
			mode = argv[i] + 10;
		} else if (!strcmp(argv[i], "--threads") && i + 1 < argc &&
		           (!strcmp(argv[i + 1], "green") || !strcmp(argv[i + 1], "1to1"))) {
			mode = argv[++i];
		} else if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--version")) {
			puts(VERSION_TEXT);
			return 0;
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			fprintf(stderr, "%s: unknown option %s (want --threads=green or --threads=1to1)\n", me, argv[i]);
			return 2;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	if (find(argv[i], prog, sizeof prog) < 0 || (fd = open(prog, O_RDONLY | O_CLOEXEC)) < 0) {
		fprintf(stderr, "%s: %s: %s\n", me, argv[i], strerror(errno ? errno : ENOENT));
		return 127;
	}
	kind = green_elf_check(fd, why, sizeof why, interp, sizeof interp);
	close(fd);
	if (kind != GREEN_ELF_MUSL) {
		fprintf(stderr, "%s: %s cannot run on green: %s%s\n", me, argv[i], why,
		        kind == GREEN_ELF_GLIBC ? "; rebuild it with green-cc --dynamic (or musl-gcc)" :
		        kind == GREEN_ELF_STATIC ? "; link it with green-cc --dynamic to choose at run time" : "");
		return 127;
	}

	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0) {
		fprintf(stderr, "%s: cannot find its own directory (/proc/self/exe): %s\n", me, strerror(errno));
		return 127;
	}
	self[n] = 0;
	*strrchr(self, '/') = 0;
	snprintf(loader, sizeof loader, "%s/%s/%s/%s", self, GREEN_RUN_LIBDIR, mode, GREEN_RUN_LOADER);
	if (access(loader, X_OK)) {
		fprintf(stderr, "%s: %s: %s (is green built, and installed where %s is?)\n",
		        me, loader, strerror(errno), me);
		return 127;
	}
	/* the loader, then its options, then the program and its arguments:
	 * argv[0] as the program would have had it without green-run */
	char **args = calloc(argc + 4, sizeof *args);
	int k = 0;
	if (!args) return 127;
	args[k++] = loader;
	args[k++] = "--argv0";
	args[k++] = argv[i];
	args[k++] = prog;
	for (int j = i + 1; j < argc; j++) args[k++] = argv[j];
	args[k] = 0;
	execv(loader, args);
	fprintf(stderr, "%s: %s: %s\n", me, loader, strerror(errno));
	return 127;
}
