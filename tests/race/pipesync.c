/* race-free: data handed over through a pipe (the write happens before
 * the read that receives it), then the reader closes both ends
 * (tests/race/race.sh) */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int fds[2];
static long data;

static void *reader(void *arg)
{
	char c;
	while (read(fds[0], &c, 1) != 1) {}
	printf("%ld\n", data);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

int main(void)
{
	pthread_t t;
	if (pipe(fds)) return 1;
	pthread_create(&t, 0, reader, 0);
	data = 42;
	while (write(fds[1], "x", 1) != 1) {}
	pthread_join(t, 0);
	return 0;
}
