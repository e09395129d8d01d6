/* Thread-local variables of several sizes and alignments in a loaded
 * object (tests/dyn/tlsalign.c; after libc-test's tls_align_dso). */
struct var {
	const char *name;
	unsigned long size, align, addr;
};

__thread char c1 = 1;
__thread char xchar = 2;
__thread char c2 = 3;
__thread short xshort = 4;
__thread char c3 = 5;
__thread int xint = 6;
__thread char c4 = 7;
__thread long long xllong = 8;
__thread char x64 __attribute__((aligned(64))) = 9;
__thread char x4096 __attribute__((aligned(4096)));

#define VAR(v) { #v, sizeof v, __alignof__(v), (unsigned long)&v }

/* the calling thread's instances */
int vars(struct var *out)
{
	struct var v[] = { VAR(xchar), VAR(xshort), VAR(xint), VAR(xllong), VAR(x64), VAR(x4096) };
	for (unsigned i = 0; i < sizeof v / sizeof *v; i++) out[i] = v[i];
	return sizeof v / sizeof *v;
}
