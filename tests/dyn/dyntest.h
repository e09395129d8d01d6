/*
 * dyntest.h — what the dynamic-linking test programs share
 * (tests/dyn/dynamic.sh).  Each program loads the object named by its first
 * argument, so that one source builds against green's libc.so in both
 * modes and against glibc (whose build is the yardstick), and exits 0
 * when every check holds, else prints what failed and exits 1.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

#define CHECK(c, ...) do { \
	if (!(c)) { \
		printf("%s:%d: %s: ", __FILE__, __LINE__, #c); \
		printf(__VA_ARGS__); \
		putchar('\n'); \
		failures++; \
	} \
} while (0)

static __attribute__((unused)) void *load(const char *path)
{
	void *h = dlopen(path, RTLD_NOW);
	if (!h) {
		printf("dlopen %s: %s\n", path, dlerror());
		exit(1);
	}
	return h;
}

static __attribute__((unused)) void *sym(void *h, const char *name)
{
	void *p = dlsym(h, name);
	if (!p) {
		printf("dlsym %s: %s\n", name, dlerror());
		exit(1);
	}
	return p;
}

static __attribute__((unused)) void start(pthread_t *t, void *(*f)(void *), void *arg)
{
	int err = pthread_create(t, 0, f, arg);
	if (err) {
		printf("pthread_create: %d\n", err);
		exit(1);
	}
}

static int done(void)
{
	if (failures) printf("%d checks failed\n", failures);
	return failures != 0;
}
