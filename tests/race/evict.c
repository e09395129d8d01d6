/* racy: the main thread reads one byte of a struct on its stack after
 * starting a thread that writes it, then writes another field of the
 * same 8 bytes; the read must stay recorded through main's other
 * accesses to the granule (an eviction lost it once) (tests/race/race.sh) */
#include <pthread.h>
#include <stdio.h>

struct s { int a; _Bool f, g; };

static void *setter(void *p)
{
	struct s *s = p;
	s->f = 1;
	return 0;
}

int main(void)
{
	struct s s;
	pthread_t t;
	s.a = 0;
	s.f = 0;
	s.g = 0;
	pthread_create(&t, 0, setter, &s);
	if (s.f) puts("set");
	s.a++;
	pthread_join(t, 0);
	printf("%d\n", s.a);
	return 0;
}
