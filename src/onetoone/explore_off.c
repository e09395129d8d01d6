/*
 * sched.c — 1:1 mode only: GREEN_SCHED does not apply.  On kernel threads
 * the kernel decides every interleaving, so a seed cannot replay one;
 * green-cc links this object into every 1:1 program so that a run with
 * GREEN_SCHED set says so once on stderr (and carries on), and so that
 * code compiled with --sched-points links: its coverage callback is a
 * no-op here.
 */
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

__attribute__((constructor)) static void note(void)
{
	static const char msg[] = "green: GREEN_SCHED is ignored: this program was built with "
	                          "--threads=1to1 (kernel threads schedule themselves)\n";
	const char *s = getenv("GREEN_SCHED");
	if (s && *s) write(2, msg, sizeof msg - 1);
}

void __sanitizer_cov_trace_pc(void)
{
}
