/*
 * crt1.c — green's program entry, in place of musl's crt1.o.
 *
 * The CPU-specific _start comes from musl's crt_arch.h (compiled from the
 * musl source tree at build time): it aligns the stack and calls
 * _start_c with a pointer to argc.  _start_c differs from musl's in one
 * thing, the init hook of the design: if the thread library's module is
 * linked, __green_start_main — a weak reference (Marovich 2.5.2) — is
 * handed to __libc_start_main in place of main.  (The module comes in with
 * anything that may have to wait, stdio's FILE locks included; what a
 * program without threads is spared is any run-time cost: the hook only
 * reads the environment.)  musl has set up TLS and
 * run the constructors by the time it is called, so the hook may touch
 * errno and the environment; it then calls main.
 */
#include <features.h>
#include "libc.h"

#define START "_start"
#include "crt_arch.h"

int main();
weak void _init();
weak void _fini();
int __libc_start_main(int (*)(), int, char **, void (*)(), void (*)(), void (*)());
weak int __green_start_main(int, char **, char **);

void _start_c(long *p)
{
	int (*entry)() = __green_start_main ? (int (*)())__green_start_main : main;
	int argc = p[0];
	char **argv = (char **)(p + 1);

	__libc_start_main(entry, argc, argv, _init, _fini, 0);
}
