// exitrace.cc — a thread that returns while main is already inside
// exit(), nobody joining it.  Its function has a try block, so the
// program links the unwinder; the thread's end must not unwind (its
// start routine returned: nothing is left to unwind), nor may a
// pthread_exit unwind once exit() has begun, when the destructors may
// have taken the unwinder's tables away.  tests/cxx/check-cxx.sh runs it
// under seeded schedules too, where the thread ends inside exit().
#include <cstdio>
#include <exception>
#include <pthread.h>
#include "check.h"

static void *worker(void *)
{
	try {
		std::printf("the thread runs\n");
	} catch (const std::exception &) {
	}
	return nullptr;
}

int main()
{
	pthread_t t;

	CHECK(pthread_create(&t, nullptr, worker, nullptr) == 0);
	OK("exit with a thread running");
	return 0;
}
