/*
 * crt1.c — green's program entry, in place of musl's crt1.o (and, built
 * position-independent, of its Scrt1.o for a dynamically linked PIE).
 *
 * The CPU-specific _start comes from musl's crt_arch.h (compiled from the
 * musl source tree at build time): it aligns the stack and calls
 * _start_c with a pointer to argc.  _start_c differs from musl's in one
 * thing, the init hook of the design (entry.h): __libc_start_main is
 * handed start_main, which reads green's environment and calls main,
 * when green's thread library is there.
 */
#include <features.h>
#include "libc.h"

#define START "_start"
#include "crt_arch.h"
#include "entry.h"

void _start_c(long *p)
{
	int argc = p[0];
	char **argv = (char **)(p + 1);

	__libc_start_main(green_entry(), argc, argv, _init, _fini, 0);
}
