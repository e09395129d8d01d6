/*
 * nothreads.c — a program that never creates a thread.  Run under strace,
 * its green build must make the same system calls as its 1:1 build: the
 * library costs nothing until a second thread exists.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	char *p = malloc(100000);
	if (!p) return 1;
	memset(p, 'x', 100000);
	sleep(0);
	usleep(1000);
	printf("nothreads %d\n", p[99999] == 'x');
	free(p);
	return 0;
}
