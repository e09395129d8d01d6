/* valgrind-glue.h — valgrind client requests, or nothing without valgrind.
 * The header comes from Debian's valgrind package at build time. */
#ifndef GREEN_VALGRIND_GLUE_H
#define GREEN_VALGRIND_GLUE_H

#ifdef GREEN_HAVE_VALGRIND
#include <valgrind.h>
#define GREEN_VG_STACK_REGISTER(lo, hi) VALGRIND_STACK_REGISTER((lo), (hi))
#define GREEN_VG_STACK_DEREGISTER(id)   VALGRIND_STACK_DEREGISTER(id)
#define GREEN_ON_VALGRIND()             RUNNING_ON_VALGRIND
#include <memcheck.h>
#define GREEN_VG_MAKE_UNDEFINED(p, n)   VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define GREEN_VG_MAKE_DEFINED(p, n)     VALGRIND_MAKE_MEM_DEFINED((p), (n))
#define GREEN_VG_QUIET_BEGIN()          VALGRIND_DISABLE_ERROR_REPORTING
#define GREEN_VG_QUIET_END()            VALGRIND_ENABLE_ERROR_REPORTING
#else
#define GREEN_VG_QUIET_BEGIN()          ((void)0)
#define GREEN_VG_QUIET_END()            ((void)0)
#define GREEN_VG_MAKE_UNDEFINED(p, n)   ((void)(p), (void)(n))
#define GREEN_VG_MAKE_DEFINED(p, n)     ((void)(p), (void)(n))
#define GREEN_VG_STACK_REGISTER(lo, hi) 0u
#define GREEN_VG_STACK_DEREGISTER(id)   ((void)(id))
#define GREEN_ON_VALGRIND()             0
#endif

#endif
