/* putc.c — putc (and its _IO_putc alias) with a green FILE lock. */
#include "base/seam.h"
#include "stdio-lock.h"

int putc(int c, FILE *f)
{
	return green_putc(c, f);
}
weak_alias(putc, _IO_putc);
