// async.cc — std::async, std::future, std::promise, std::packaged_task:
// values and exceptions handed from one thread to another.
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>
#include <vector>
#include "check.h"

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main()
{
	std::vector<std::future<long>> f;
	for (int i = 0; i < 20; i++)
		f.push_back(std::async(std::launch::async, [i] {
			std::this_thread::yield();
			return fib(i);
		}));
	long sum = 0;
	for (auto &x : f) sum += x.get();
	CHECK(sum == 10945);  // fib(0) + ... + fib(19) = fib(21) - 1
	OK("async");

	auto bad = std::async(std::launch::async, [] () -> int {
		std::this_thread::sleep_for(std::chrono::milliseconds(2));
		throw std::runtime_error("from the thread");
	});
	try {
		bad.get();
		CHECK(false);
	} catch (const std::runtime_error &e) {
		CHECK(std::string(e.what()) == "from the thread");
	}
	OK("async_exception");

	std::promise<int> p;
	std::future<int> pf = p.get_future();
	std::thread setter([&p] {
		std::this_thread::sleep_for(std::chrono::milliseconds(5));
		p.set_value(99);
	});
	CHECK(pf.wait_for(std::chrono::seconds(0)) == std::future_status::timeout);
	CHECK(pf.get() == 99);
	setter.join();
	OK("promise");

	std::packaged_task<int(int)> task([](int x) { return x + 1; });
	auto tf = task.get_future();
	std::thread runner(std::move(task), 41);
	CHECK(tf.get() == 42);
	runner.join();
	auto shared = std::async(std::launch::async, [] { return 5; }).share();
	std::vector<std::thread> readers;
	std::vector<int> got(4);
	for (int i = 0; i < 4; i++) readers.emplace_back([&, i] { got[i] = shared.get(); });
	for (auto &r : readers) r.join();
	for (int g : got) CHECK(g == 5);
	OK("packaged_task_shared_future");
	return 0;
}
