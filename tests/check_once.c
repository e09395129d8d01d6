/* check_once.c — Check suite: once (to be written). */
#include "testutil.h"

Suite *suite_once(void)
{
	Suite *s = suite_create("once");
	return s;
}
