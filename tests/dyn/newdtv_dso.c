/* A loaded object whose function touches its thread-local data
 * (tests/dyn/newdtv.c; after libc-test's tls_get_new-dtv_dso).  Built
 * twice, as two objects, with -DOBJ=1 and -DOBJ=2. */
__thread long word = OBJ;
__thread char page[4096];

long f(void)
{
	page[OBJ * 100] += 1;
	return word++ * 1000 + page[OBJ * 100];
}
