/*
 * entry.h — the init hook that green's start-up objects hand to
 * __libc_start_main in place of main (crt1.c, rcrt1.c).
 *
 * __green_start (src/core/thread/create.c: it reads green's environment
 * variables) is a weak reference (Marovich 2.5.2): in a static link it
 * is non-null only when the thread library's module is linked, and
 * then start_main calls it before main.  (The module comes in with
 * anything that may have to wait, stdio's FILE locks included; what a
 * program without threads is spared is any run-time cost: the hook only
 * reads the environment.)  In a dynamic link it is green's libc.so's,
 * found by the loader; under a libc.so that has none (musl's own, the
 * 1:1 library, which `green-run --threads=1to1` loads) it is null again
 * and main runs as usual.  musl has set up TLS and run the constructors
 * by the time start_main is called, so the hook may touch errno and the
 * environment.
 */
int main();
weak void _init();
weak void _fini();
int __libc_start_main(int (*)(), int, char **, void (*)(), void (*)(), void (*)());
weak void __green_start(void);

static int start_main(int argc, char **argv, char **envp)
{
	__green_start();
	return main(argc, argv, envp);
}

static inline int (*green_entry(void))()
{
	return __green_start ? (int (*)())start_main : main;
}
