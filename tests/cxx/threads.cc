// threads.cc — std::thread, this_thread::yield and sleep_for,
// hardware_concurrency, and C objects linked into a C++ program.
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>
#include <unistd.h>
#include "check.h"

extern "C" int cpart_sum(const int *v, int n);           // cpart.c
extern "C" int cpart_apply(int (*f)(int), int x);        // cpart.c

static int twice(int x) { return 2 * x; }

static void create_join()
{
	std::vector<int> out(64);
	std::vector<std::thread> t;
	for (int i = 0; i < 64; i++)
		t.emplace_back([&out, i] { out[i] = i * i; });
	for (auto &th : t) th.join();
	for (int i = 0; i < 64; i++) CHECK(out[i] == i * i);
	CHECK(cpart_sum(out.data(), 4) == 0 + 1 + 4 + 9);
	OK("create_join");
}

// two threads take turns through a flag, each waiting with yield: under
// cooperative scheduling this ends only if yield lets the other run
static void yield_turns()
{
	std::atomic<int> turn{0};
	const int rounds = 1000;
	auto player = [&](int me) {
		for (int i = 0; i < rounds; i++) {
			while (turn.load() % 2 != me) std::this_thread::yield();
			turn.fetch_add(1);
		}
	};
	std::thread a(player, 0), b(player, 1);
	a.join();
	b.join();
	CHECK(turn.load() == 2 * rounds);
	OK("yield_turns");
}

static void sleep_for_elapses()
{
	using namespace std::chrono;
	std::atomic<int> ran{0};
	std::thread other([&] { while (ran.load() == 0) std::this_thread::yield(); ran = 2; });
	auto t0 = steady_clock::now();
	ran = 1;
	std::this_thread::sleep_for(milliseconds(20));  // the other thread runs meanwhile
	auto dt = steady_clock::now() - t0;
	other.join();
	CHECK(dt >= milliseconds(20));
	CHECK(ran.load() == 2);
	OK("sleep_for");
}

static void hardware_concurrency()
{
	unsigned n = std::thread::hardware_concurrency();
	if (green_mode())
		CHECK(n == 1);  // every thread runs on one kernel thread
	else
		CHECK(n >= 1 && (long)n == sysconf(_SC_NPROCESSORS_ONLN));
	OK("hardware_concurrency");
}

static void c_calls_cxx()
{
	int r = 0;
	std::thread t([&] { r = cpart_apply(twice, 21); });
	t.join();
	CHECK(r == 42);
	OK("c_calls_cxx");
}

int main()
{
	create_join();
	yield_turns();
	sleep_for_elapses();
	hardware_concurrency();
	c_calls_cxx();
	return 0;
}
