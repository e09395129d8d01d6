// sync.cc — std::call_once, std::condition_variable (wait, wait_for and
// wait_until on steady_clock), std::shared_mutex.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>
#include "check.h"

using namespace std::chrono;

// every thread calls call_once; the one that runs the function sleeps in
// it, so the others must wait for it to finish, not skip past
static void call_once_all()
{
	std::once_flag once;
	std::atomic<int> calls{0}, done{0};
	std::vector<std::thread> t;
	for (int i = 0; i < 16; i++)
		t.emplace_back([&] {
			std::call_once(once, [&] {
				std::this_thread::sleep_for(milliseconds(10));
				calls++;
				done = 1;
			});
			CHECK(done.load() == 1);
		});
	for (auto &th : t) th.join();
	CHECK(calls.load() == 1);
	OK("call_once");
}

// an exception from the once function leaves the flag unset: the next
// caller runs it.  libstdc++ runs the function inside pthread_once; green's
// is built to be unwound through (src/core/sync/once.c), stock musl's (1:1
// mode) is not, and the exception ends the program there (docs/cxx.md)
static void call_once_exception()
{
	if (!green_mode()) {
		std::printf("skip call_once_exception (1:1 mode: musl's pthread_once)\n");
		return;
	}
	std::once_flag once;
	int runs = 0;
	std::thread a([&] {
		try {
			std::call_once(once, [&] { runs++; throw 7; });
			CHECK(false);
		} catch (int e) {
			CHECK(e == 7);
		}
	});
	a.join();
	std::thread b([&] { std::call_once(once, [&] { runs++; }); });
	b.join();
	CHECK(runs == 2);
	OK("call_once_exception");
}

static void cond_timeouts()
{
	std::mutex m;
	std::condition_variable cv;
	std::unique_lock<std::mutex> lk(m);
	auto t0 = steady_clock::now();
	CHECK(cv.wait_for(lk, milliseconds(15)) == std::cv_status::timeout);
	CHECK(steady_clock::now() - t0 >= milliseconds(15));
	t0 = steady_clock::now();
	CHECK(cv.wait_until(lk, t0 + milliseconds(15)) == std::cv_status::timeout);
	CHECK(steady_clock::now() >= t0 + milliseconds(15));
	// with a predicate that another thread makes true before the deadline
	bool ready = false;
	std::thread t([&] {
		std::this_thread::sleep_for(milliseconds(5));
		std::lock_guard<std::mutex> g(m);
		ready = true;
		cv.notify_one();
	});
	CHECK(cv.wait_for(lk, seconds(30), [&] { return ready; }));
	lk.unlock();
	t.join();
	OK("cond_wait_for_until");
}

// all readers hold the shared lock at once (each waits inside it until
// all have arrived); a writer holds it alone
static void shared_mutex_readers_writer()
{
	std::shared_mutex sm;
	std::mutex m;
	std::condition_variable cv;
	const int readers = 6;
	int inside = 0, max_inside = 0;
	bool writer_in = false;
	std::vector<std::thread> t;
	for (int i = 0; i < readers; i++)
		t.emplace_back([&] {
			std::shared_lock<std::shared_mutex> r(sm);
			std::unique_lock<std::mutex> lk(m);
			CHECK(!writer_in);
			inside++;
			if (inside > max_inside) max_inside = inside;
			cv.notify_all();
			cv.wait(lk, [&] { return max_inside == readers; });
			inside--;
		});
	for (auto &th : t) th.join();
	CHECK(max_inside == readers);
	int counter = 0;
	std::vector<std::thread> w;
	for (int i = 0; i < 4; i++)
		w.emplace_back([&] {
			for (int k = 0; k < 200; k++) {
				std::unique_lock<std::shared_mutex> x(sm);
				int c = counter;
				std::this_thread::yield();  // another writer would get in here
				counter = c + 1;
			}
		});
	for (auto &th : w) th.join();
	CHECK(counter == 800);
	OK("shared_mutex");
}

int main()
{
	call_once_all();
	call_once_exception();
	cond_timeouts();
	shared_mutex_readers_writer();
	return 0;
}
