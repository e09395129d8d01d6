/* check_barrier.c — Check suite: barrier (to be written). */
#include "testutil.h"

Suite *suite_barrier(void)
{
	Suite *s = suite_create("barrier");
	return s;
}
