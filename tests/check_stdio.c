/* check_stdio.c — Check suite: stdio (to be written). */
#include "testutil.h"

Suite *suite_stdio(void)
{
	Suite *s = suite_create("stdio");
	return s;
}
