/* check_rwlock.c — Check suite: rwlock (to be written). */
#include "testutil.h"

Suite *suite_rwlock(void)
{
	Suite *s = suite_create("rwlock");
	return s;
}
