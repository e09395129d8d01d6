/* options: two unrelated races; its __tsan_default_options asks for
 * exitcode=7, and TSAN_OPTIONS overrides it (tests/race/race.sh) */
#include <pthread.h>
#include <stdio.h>

const char *__tsan_default_options(void)
{
	return "exitcode=7 history_size=3";
}

static int a __attribute__((aligned(8))), b __attribute__((aligned(8)));

static void *writer(void *arg)
{
	a = 1;
	b = 1;
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, writer, 0);
	printf("%d\n", a);
	printf("%d\n", b);
	pthread_join(t, 0);
	return 0;
}
