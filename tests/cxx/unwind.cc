// unwind.cc — pthread_exit and cancellation unwind the exiting thread's
// C++ frames, as glibc's forced unwinding does: destructors run, a
// catch (abi::__forced_unwind &) sees it and rethrows, C cleanup
// handlers run in the order of the frames, and a future whose thread
// exits that way is made ready with broken_promise.
#include <atomic>
#include <cxxabi.h>
#include <future>
#include <pthread.h>
#include <string>
#include <thread>
#include <unistd.h>
#include "check.h"

static std::string trail;   // what ran, in order
static pthread_mutex_t trail_lock = PTHREAD_MUTEX_INITIALIZER;

static void note(const char *what)
{
	pthread_mutex_lock(&trail_lock);
	trail += what;
	pthread_mutex_unlock(&trail_lock);
}

struct Mark {
	const char *what;
	~Mark() { note(what); }
};

static int exit_inside()
{
	Mark m{"d"};
	std::this_thread::yield();    // a switch on the way, in green mode
	pthread_exit(nullptr);
	return 1;
}

static void broken_promise(std::future<int> &f)
{
	try {
		f.get();
		CHECK(!"the future had a value");
	} catch (const std::future_error &e) {
		CHECK(e.code() == std::future_errc::broken_promise);
	}
}

static void c_handler(void *arg) { note((const char *)arg); }

// frames: outer (a Mark) > middle (a C cleanup handler) > inner (a Mark,
// a catch of the forced unwind that rethrows) > pthread_exit.  Separate
// frames: a handler runs once the frames below the one that pushed it
// are unwound (docs/cxx.md)
__attribute__((noinline)) static void inner()
{
	Mark m{"3"};
	try {
		pthread_exit(nullptr);
	} catch (abi::__forced_unwind &) {
		note("c");
		throw;
	}
}

__attribute__((noinline)) static void middle()
{
	pthread_cleanup_push(c_handler, (void *)"2");
	inner();
	pthread_cleanup_pop(0);
}

static void *outer(void *)
{
	Mark m{"1"};
	middle();
	return (void *)1;
}

static void *cancelled(void *arg)
{
	Mark m{"x"};
	static_cast<std::atomic<int> *>(arg)->store(1);
	for (;;) pause();   // a cancellation point
	return 0;
}

int main()
{
	if (!green_mode()) {
		// stock musl's pthread_exit runs the C handlers only
		std::printf("skip unwind (stock musl does not unwind C++ frames at pthread_exit)\n");
		return 0;
	}
	auto f = std::async(std::launch::async, exit_inside);
	broken_promise(f);
	CHECK(trail == "d");
	OK("async");

	trail.clear();
	std::packaged_task<int()> task(exit_inside);
	auto g = task.get_future();
	std::thread t(std::move(task));
	t.join();
	broken_promise(g);
	CHECK(trail == "d");
	OK("packaged_task");

	trail.clear();
	pthread_t p;
	void *res = 0;
	CHECK(pthread_create(&p, 0, outer, 0) == 0);
	CHECK(pthread_join(p, &res) == 0);
	CHECK(res == 0);
	CHECK(trail == "c321");
	OK("order");

	trail.clear();
	std::atomic<int> up{0};
	CHECK(pthread_create(&p, 0, cancelled, &up) == 0);
	while (!up) std::this_thread::yield();
	CHECK(pthread_cancel(p) == 0);
	CHECK(pthread_join(p, &res) == 0);
	CHECK(res == PTHREAD_CANCELED);
	CHECK(trail == "x");
	OK("cancel");
	return 0;
}
