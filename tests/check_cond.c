/* check_cond.c — Check suite: cond (to be written). */
#include "testutil.h"

Suite *suite_cond(void)
{
	Suite *s = suite_create("cond");
	return s;
}
