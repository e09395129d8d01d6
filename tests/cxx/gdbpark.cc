// gdbpark.cc — C++ threads parked in a std::mutex, a
// std::condition_variable and std::this_thread::sleep_for, each inside a
// member function, for tests/cxx/cxx-gdb.sh: gdb stops in stop_here with all
// three parked, and each one's backtrace must go through its C++ frames
// down to the thread's start.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <pthread.h>
#include <thread>
#include "check.h"

static std::atomic<int> parked{0};

extern "C" __attribute__((noinline)) void stop_here(int n)
{
	std::printf("parked %d\n", n);
	std::fflush(stdout);
}

namespace park {
struct Worker {
	std::mutex &held;
	std::condition_variable cv;
	std::mutex cm;
	bool go = false;

	__attribute__((noinline)) void wait_mutex()
	{
		parked++;
		std::lock_guard<std::mutex> g(held);
	}
	__attribute__((noinline)) void wait_cond()
	{
		std::unique_lock<std::mutex> lk(cm);
		parked++;
		cv.wait(lk, [this] { return go; });
	}
	__attribute__((noinline)) void wait_sleep()
	{
		parked++;
		std::this_thread::sleep_for(std::chrono::milliseconds(300));
	}
};
}

static void named(std::thread &t, const char *name)
{
	pthread_setname_np(t.native_handle(), name);
}

int main()
{
	std::mutex held;
	park::Worker w{held};
	held.lock();
	std::thread a([&] { w.wait_mutex(); });
	named(a, "cxx-mutex");
	std::thread b([&] { w.wait_cond(); });
	named(b, "cxx-cond");
	std::thread c([&] { w.wait_sleep(); });
	named(c, "cxx-sleep");
	while (parked.load() < 3) std::this_thread::yield();
	std::this_thread::yield();  // each has gone on into its wait
	stop_here(parked.load());
	held.unlock();
	{
		std::lock_guard<std::mutex> g(w.cm);
		w.go = true;
	}
	w.cv.notify_one();
	a.join();
	b.join();
	c.join();
	return 0;
}
