/* race-msort.c — the memory-bound workload of bench/race.sh (docs/race.md):
 * 4 threads, each merge-sorts its own array of 200000 ints five times;
 * the main thread checks the results after join */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#define N 4
#define LEN 200000
static void msort(int *a, int *tmp, int n)
{
	if (n < 2) return;
	int h = n / 2, i = 0, j = h, k = 0;
	msort(a, tmp, h);
	msort(a + h, tmp, n - h);
	while (i < h && j < n) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
	while (i < h) tmp[k++] = a[i++];
	while (j < n) tmp[k++] = a[j++];
	for (i = 0; i < n; i++) a[i] = tmp[i];
}
static void *work(void *arg)
{
	int *a = arg, *tmp = malloc(LEN * sizeof *tmp);
	unsigned x = (unsigned)(long)arg;
	for (int r = 0; r < 5; r++) {
		for (int i = 0; i < LEN; i++) a[i] = (x = x * 1103515245 + 12345) >> 8;
		msort(a, tmp, LEN);
	}
	free(tmp);
	return 0;
}
int main(void)
{
	pthread_t t[N];
	int *a[N], bad = 0;
	for (int i = 0; i < N; i++) { a[i] = malloc(LEN * sizeof(int)); pthread_create(&t[i], 0, work, a[i]); }
	for (int i = 0; i < N; i++) {
		pthread_join(t[i], 0);
		for (int k = 1; k < LEN; k++) bad += a[i][k - 1] > a[i][k];
	}
	printf("%d\n", bad);
	return bad != 0;
}
