/* memory: blocks allocated, filled and freed one at a time, one live at
 * a time: the detector's memory must follow the live heap, not the sum
 * of the blocks (tests/race/race.sh, bench/race.sh) */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	size_t size = argc > 1 ? strtoul(argv[1], 0, 0) : 65536;
	int n = argc > 2 ? atoi(argv[2]) : 1000, i;
	long sum = 0;
	for (i = 0; i < n; i++) {
		long *p = malloc(size);
		size_t k;
		if (!p) return 1;
		for (k = 0; k < size / sizeof *p; k++) p[k] = k + i;
		sum += p[size / sizeof *p / 2];
		free(p);
	}
	printf("%ld\n", sum);
	return 0;
}
