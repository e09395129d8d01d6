/* signal — BSD semantics, as glibc's: the handler stays installed and
 * interrupted calls restart; through green's sigaction (sigaction.c). */
#define _GNU_SOURCE
#include <signal.h>

sighandler_t signal(int sig, sighandler_t h)
{
	struct sigaction sa = { .sa_handler = h, .sa_flags = SA_RESTART }, old;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, sig);
	if (sigaction(sig, &sa, &old)) return SIG_ERR;
	return old.sa_handler;
}
