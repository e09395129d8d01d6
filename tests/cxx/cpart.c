/* cpart.c — C code compiled by green-cc and linked into C++ programs by
 * green-c++ (tests/cxx/threads.cc). */
int cpart_sum(const int *v, int n)
{
	int s = 0;
	while (n--) s += *v++;
	return s;
}

int cpart_apply(int (*f)(int), int x)
{
	return f(x);
}
