// racy: C++ std::thread: a writer and a reader of one global with no
// synchronisation between them (tests/race/race.sh)
#include <atomic>
#include <cstdio>
#include <thread>

long total;
std::atomic<int> started;

__attribute__((noinline)) void add_to_total(long n)
{
	total += n;
}

__attribute__((noinline)) long read_total()
{
	return total;
}

int main()
{
	std::thread w([] {
		started.fetch_add(1, std::memory_order_relaxed);
		add_to_total(5);
	});
	while (!started.load(std::memory_order_relaxed)) std::this_thread::yield();
	std::thread r([] { std::printf("total %ld\n", read_total()); });
	w.join();
	r.join();
	return 0;
}
