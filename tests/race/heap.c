/* racy: two threads write the same field of a heap block: the report
 * names the block and the stack that allocated it (tests/race/race.sh) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct table { int slots[8]; long hits; };

__attribute__((noinline)) static struct table *make_table(void)
{
	struct table *t = calloc(1, sizeof *t);
	t->slots[0] = -1;
	return t;
}

__attribute__((noinline)) static void record_hit(struct table *t)
{
	t->hits += 1;
}

static void *hitter(void *arg)
{
	record_hit(arg);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	struct table *t = make_table();
	pthread_create(&a, 0, hitter, t);
	pthread_create(&b, 0, hitter, t);
	pthread_join(a, 0);
	pthread_join(b, 0);
	printf("hits %ld\n", t->hits);
	free(t);
	return 0;
}
