/* racy: one thread writes to a pipe while another closes it, nothing
 * ordering the two: a race on the descriptor, write against close
 * (tests/race/race.sh) */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int fds[2];

static void *writer(void *arg)
{
	write(fds[1], "x", 1);
	return 0;
}

static void *closer(void *arg)
{
	close(fds[1]);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	char c;
	if (pipe(fds)) return 1;
	pthread_create(&a, 0, writer, 0);
	pthread_create(&b, 0, closer, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	printf("read %d\n", (int)read(fds[0], &c, 1));
	return 0;
}
