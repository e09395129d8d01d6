/* check_mutex.c — Check suite: mutex (to be written). */
#include "testutil.h"

Suite *suite_mutex(void)
{
	Suite *s = suite_create("mutex");
	return s;
}
