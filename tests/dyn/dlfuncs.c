/*
 * dlfuncs — the other dl* calls on an object built with green-cc
 * -shared (argv[1], counter_dso.so), and dlopen's answer for one built
 * for glibc (argv[2]: NULL, dlerror saying why).  dladdr names the
 * object that holds a function; dl_iterate_phdr lists it with its TLS
 * segment; dlsym(RTLD_DEFAULT) finds its symbol once it is loaded
 * RTLD_GLOBAL; dlclose answers 0.
 */
#define _GNU_SOURCE
#include <link.h>
#include <string.h>
#include "dyntest.h"

struct found {
	const char *name;
	int tls;   /* the object seen with a PT_TLS segment */
	int n;     /* objects listed */
};

static int each(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct found *f = arg;
	f->n++;
	if (info->dlpi_name && strstr(info->dlpi_name, f->name))
		for (int i = 0; i < info->dlpi_phnum; i++)
			if (info->dlpi_phdr[i].p_type == PT_TLS) f->tls = 1;
	return 0;
}

int main(int argc, char **argv)
{
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL), *g;
	Dl_info info;
	struct found f = { strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1], 0, 0 };
	const char *err;

	CHECK(h != 0, "dlopen %s: %s", argv[1], dlerror());
	if (!h) return done();
	void *bump = dlsym(h, "bump");
	CHECK(bump != 0, "dlsym bump");
	CHECK(dlsym(RTLD_DEFAULT, "bump") == bump, "dlsym(RTLD_DEFAULT) finds the global object's symbol");
	CHECK(dladdr(bump, &info) && info.dli_fname && strstr(info.dli_fname, f.name),
	      "dladdr names %s", info.dli_fname ? info.dli_fname : "nothing");
	CHECK(info.dli_sname && !strcmp(info.dli_sname, "bump"), "dladdr's symbol: %s",
	      info.dli_sname ? info.dli_sname : "none");
	dl_iterate_phdr(each, &f);
	CHECK(f.tls, "dl_iterate_phdr lists %s with its TLS segment (%d objects)", f.name, f.n);
	CHECK(dlclose(h) == 0, "dlclose: %s", dlerror());
	CHECK(dlsym(h, "no_such_symbol") == 0 && dlerror() != 0, "dlsym of a missing symbol fails with a message");

	g = dlopen(argv[2], RTLD_NOW);
	err = g ? 0 : dlerror();
	CHECK(!g, "an object built for glibc (%s) is loaded", argv[2]);
	CHECK(err && strstr(err, "glibc") && strstr(err, argv[2]), "its dlerror: %s", err ? err : "none");
	return done();
}
