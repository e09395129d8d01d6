/* check_tsd.c — Check suite: tsd (to be written). */
#include "testutil.h"

Suite *suite_tsd(void)
{
	Suite *s = suite_create("tsd");
	return s;
}
