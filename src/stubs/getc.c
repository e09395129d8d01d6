/* getc.c — getc (and its _IO_getc alias) with a green FILE lock. */
#include "base/seam.h"
#include "stdio-lock.h"

int getc(FILE *f)
{
	return green_getc(f);
}
weak_alias(getc, _IO_getc);
