/* check_time.c — Check suite: time (to be written). */
#include "testutil.h"

Suite *suite_time(void)
{
	Suite *s = suite_create("time");
	return s;
}
