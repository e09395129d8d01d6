/* endings — a thread ends the process in a way that skips exit's
 * handlers: `endings trap` executes an invalid instruction (SIGILL, or
 * whatever the CPU's trap raises), `endings _exit` calls _exit(3).
 * tests/explore/explore.sh: under GREEN_SCHED each still prints the schedule
 * line. */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

static void *end(void *how)
{
	if (!strcmp(how, "trap")) __builtin_trap();
	_exit(3);
}

int main(int argc, char **argv)
{
	pthread_t t;
	if (argc != 2) return 2;
	pthread_create(&t, 0, end, argv[1]);
	pthread_join(t, 0);
	return 0;
}
