/* check_cancel.c — Check suite: cancel (to be written). */
#include "testutil.h"

Suite *suite_cancel(void)
{
	Suite *s = suite_create("cancel");
	return s;
}
