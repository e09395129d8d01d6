/* check_sem.c — Check suite: sem (to be written). */
#include "testutil.h"

Suite *suite_sem(void)
{
	Suite *s = suite_create("sem");
	return s;
}
