/*
 * sysconf — green's answers where they differ from musl's table, in both
 * threads modes.  musl's sysconf is one member with a table compiled
 * against musl's own <limits.h>, so green does not replace it: green-cc
 * links with --wrap=sysconf (tools/mkspecs.sh) and every call, the libc's
 * own included, comes here first.
 *
 *   _SC_THREAD_STACK_MIN   green's PTHREAD_STACK_MIN (<limits.h>: 16384)
 *   _SC_THREAD_PRIO_PROTECT, _SC_THREAD_PRIO_INHERIT and their robust
 *   variants              green mode only: green's own priority-ceiling
 *                          and priority-inheritance mutexes, robust or
 *                          not (<unistd.h> overlay: the _POSIX_ macros)
 *   _SC_PRIORITY_SCHEDULING, _SC_PRIORITIZED_IO  green mode only:
 *                          process scheduling and priority-ordered
 *                          process-shared waits, AIO by aio_reqprio;
 *                          1:1 keeps musl's -1 (docs/posix.md says why)
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
	case _SC_THREAD_PRIO_INHERIT:
	case _SC_THREAD_ROBUST_PRIO_INHERIT:
	case _SC_THREAD_ROBUST_PRIO_PROTECT:
	case _SC_PRIORITY_SCHEDULING:
	case _SC_PRIORITIZED_IO:
		return 200809L;
	case _SC_NPROCESSORS_ONLN:
		return 1;
#endif
	}
	return __real_sysconf(name);
}
