/* check_c11.c — Check suite: c11 (to be written). */
#include "testutil.h"

Suite *suite_c11(void)
{
	Suite *s = suite_create("c11");
	return s;
}
