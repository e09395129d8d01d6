/* check_thread.c — Check suite: thread (to be written). */
#include "testutil.h"

Suite *suite_thread(void)
{
	Suite *s = suite_create("thread");
	return s;
}
