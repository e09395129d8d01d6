/* Initialised and zero thread-local data in a loaded object
 * (tests/dyn/tlsinit.c; after libc-test's tls_init_dso). */
#include <string.h>

__thread int fixed = 23;
__thread char text[32] = "green threads";
__thread int zero;
__thread int zeros[2048];

/* 0 when the calling thread's instances hold their first values */
int fresh(void)
{
	if (fixed != 23 || strcmp(text, "green threads") || zero) return 1;
	for (int i = 0; i < 2048; i++) if (zeros[i]) return 2;
	return 0;
}

/* make them the thread's own, and say whether they still are */
void mark(int k)
{
	fixed = k;
	zero = -k;
	zeros[k % 2048] = k;
	text[0] = 'A' + k % 26;
}

int marked(int k)
{
	return fixed == k && zero == -k && zeros[k % 2048] == k && text[0] == 'A' + k % 26;
}
