/* getchar.c — getchar with a green FILE lock. */
#include "stdio-lock.h"

int getchar(void)
{
	return green_getc(stdin);
}
