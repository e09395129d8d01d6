/* check_errno.c — Check suite: errno (to be written). */
#include "testutil.h"

Suite *suite_errno(void)
{
	Suite *s = suite_create("errno");
	return s;
}
