/*
 * rcrt1.c — the entry of a static position-independent executable
 * (green-cc -static-pie), in place of musl's rcrt1.o.
 *
 * As musl's: _start is musl's self-relocating stage (ldso/dlstart.c,
 * compiled from the musl source tree at build time under the name
 * _start_c), which applies the executable's own relative relocations
 * wherever the kernel put it and then calls __dls2 here.  __dls2 starts
 * the program as crt1.c does, with green's init hook (entry.h).
 */
#define START "_start"
#define _dlstart_c _start_c
#include "dlstart.c"
#include "entry.h"

hidden void __dls2(unsigned char *base, size_t *sp)
{
	__libc_start_main(green_entry(), *sp, (void *)(sp + 1), _init, _fini, 0);
}
