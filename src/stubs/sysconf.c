/*
 * sysconf — green's answers where they differ from musl's table, in both
 * threads modes.  musl's sysconf is one member with a table compiled
 * against musl's own <limits.h>, so green does not replace it: green-cc
 * links with --wrap=sysconf (tools/mkspecs.sh) and every call, the libc's
 * own included, comes here first.
 *
 *   _SC_THREAD_STACK_MIN   green's PTHREAD_STACK_MIN (<limits.h>: 16384)
 *   _SC_THREAD_PRIO_PROTECT  green mode only: priority-ceiling mutexes
 *                          (<unistd.h> overlay: _POSIX_THREAD_PRIO_PROTECT)
 *   _SC_NPROCESSORS_ONLN   green mode only: 1, the processors the
 *                          program's threads run on at once (they all
 *                          run on one kernel thread); with it get_nprocs
 *                          and C++'s std::thread::hardware_concurrency.
 *                          _SC_NPROCESSORS_CONF still counts the machine's.
 *
 * The 1:1 library is compiled with GREEN_ONETOONE and answers as musl
 * does wherever the two modes differ.
 */
#include <unistd.h>
#include <limits.h>

long __real_sysconf(int);

long __wrap_sysconf(int name)
{
	switch (name) {
	case _SC_THREAD_STACK_MIN:
		return PTHREAD_STACK_MIN;
#ifndef GREEN_ONETOONE
	case _SC_THREAD_PRIO_PROTECT:
		return 200809L;
	case _SC_NPROCESSORS_ONLN:
		return 1;
#endif
	}
	return __real_sysconf(name);
}
