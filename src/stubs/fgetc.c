/* fgetc.c — fgetc with a green FILE lock. */
#include "stdio-lock.h"

int fgetc(FILE *f)
{
	return green_getc(f);
}
