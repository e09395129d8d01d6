/* check_spin.c — Check suite: spin (to be written). */
#include "testutil.h"

Suite *suite_spin(void)
{
	Suite *s = suite_create("spin");
	return s;
}
