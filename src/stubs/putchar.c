/* putchar.c — putchar with a green FILE lock. */
#include "stdio-lock.h"

int putchar(int c)
{
	return green_putc(c, stdout);
}
