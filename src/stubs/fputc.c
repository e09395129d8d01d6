/* fputc.c — fputc with a green FILE lock. */
#include "stdio-lock.h"

int fputc(int c, FILE *f)
{
	return green_putc(c, f);
}
