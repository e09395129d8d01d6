// except.cc — exceptions inside threads: thrown after the thread was
// switched out and back (in every frame between throw and catch) and
// caught in the same thread, on separate stacks and on copied ones
// (whose frames were copied out while the thread was parked and copied
// back in); rethrown across threads with std::exception_ptr; and a stack
// walk (_Unwind_Backtrace) from a thread that ends cleanly at green's
// thread start.
#include <atomic>
#include <exception>
#include <mutex>
#include <pthread.h>
#include <stdexcept>
#include <string>
#include <thread>
#include <unwind.h>
#include <vector>
#include "check.h"

static std::mutex gate;

struct Guard {  // destructors must run while the exception unwinds
	int *count;
	~Guard() { ++*count; }
};

// depth frames, each switched out (a yield, a sleep and a contended
// mutex) before going deeper; the innermost throws
static int deep(int depth, int *guards, int id)
{
	Guard g{guards};
	char pad[256];  // frames with data in them, for the copies to carry
	for (auto &c : pad) c = (char)(depth + id);
	std::this_thread::yield();
	if (depth % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
	{ std::lock_guard<std::mutex> l(gate); std::this_thread::yield(); }
	if (depth == 0) throw std::runtime_error("deep " + std::to_string(id));
	int r = deep(depth - 1, guards, id);
	for (auto &c : pad) CHECK(c == (char)(depth + id));
	return r;
}

static std::atomic<int> caught{0};

static void thrower(int id)
{
	int guards = 0;
	try {
		deep(12, &guards, id);
		CHECK(false);
	} catch (const std::runtime_error &e) {
		CHECK(std::string(e.what()) == "deep " + std::to_string(id));
		CHECK(guards == 13);
		caught++;
	}
}

static void *copied_thrower(void *arg)
{
	thrower((int)(long)arg);
	return nullptr;
}

static _Unwind_Reason_Code count_frame(struct _Unwind_Context *, void *n)
{
	if (++*(int *)n > 1000) return _URC_NORMAL_STOP;
	return _URC_NO_REASON;
}

int main()
{
	std::vector<std::thread> t;
	for (int i = 0; i < 6; i++) t.emplace_back(thrower, i);
	for (auto &th : t) th.join();
	CHECK(caught.load() == 6);
	OK("throw_after_switch");

	// copied stacks asked for by the program, whatever GREEN_STACKS is
	// (in 1:1 mode the attribute is accepted and stacks are separate)
	pthread_attr_t a;
	pthread_attr_init(&a);
	CHECK(pthread_attr_setstackmode_np(&a, PTHREAD_STACK_COPIED_NP) == 0);
	pthread_t p[6];
	for (long i = 0; i < 6; i++) CHECK(pthread_create(&p[i], &a, copied_thrower, (void *)(10 + i)) == 0);
	for (auto &x : p) pthread_join(x, nullptr);
	CHECK(caught.load() == 12);
	OK("throw_after_switch_copied");

	std::exception_ptr ep;
	std::thread r([&] {
		try {
			deep(3, new int(0), 99);
		} catch (...) {
			ep = std::current_exception();
		}
	});
	r.join();
	try {
		std::rethrow_exception(ep);
	} catch (const std::runtime_error &e) {
		CHECK(std::string(e.what()) == "deep 99");
	}
	OK("exception_ptr_across_threads");

	int frames = 0;
	_Unwind_Reason_Code rc = _URC_NO_REASON;
	std::thread w([&] {
		std::this_thread::yield();
		rc = _Unwind_Backtrace(count_frame, &frames);
	});
	w.join();
	CHECK(rc == _URC_END_OF_STACK);
	CHECK(frames >= 2 && frames < 40);
	OK("unwind_to_thread_start");
	return 0;
}
