// cxx.cc — yield_busy and mutex_contention of bench/micro.c (the same
// loops, the same "T name median min max ops trials" lines, ns per
// operation) written with std::thread, std::this_thread::yield and
// std::mutex, built by green-c++ (docs/cxx.md): what the C++ layer adds
// over the C calls.
//   bench-cxx-green [trials [iterations]]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

using clk = std::chrono::steady_clock;

static std::mutex m;

// two threads run body n times each, started together; ns from the
// first start to the last end
template <class F> static double duo(long n, F body)
{
	std::mutex gate;
	int arrived = 0;
	clk::time_point start[2], end[2];
	auto role = [&](int i) {
		{
			std::unique_lock<std::mutex> g(gate);
			arrived++;
		}
		for (;;) {  // a barrier of two, by yields: no condition variable in the timing
			{
				std::lock_guard<std::mutex> g(gate);
				if (arrived == 2) break;
			}
			std::this_thread::yield();
		}
		start[i] = clk::now();
		for (long k = 0; k < n; k++) body();
		end[i] = clk::now();
	};
	std::thread a(role, 0), b(role, 1);
	a.join();
	b.join();
	auto s = std::min(start[0], start[1]), e = std::max(end[0], end[1]);
	return std::chrono::duration<double, std::nano>(e - s).count();
}

template <class F> static void metric(const char *name, int trials, long n, F body)
{
	std::vector<double> v;
	for (int t = 0; t < trials; t++) v.push_back(duo(n, body) / (2.0 * n));
	std::sort(v.begin(), v.end());
	int k = (int)v.size();
	double med = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	std::printf("T %s %.3f %.3f %.3f %.0f %d\n", name, med, v[0], v[k - 1], 2.0 * n, k);
	std::fflush(stdout);
}

int main(int argc, char **argv)
{
	int trials = argc > 1 ? std::atoi(argv[1]) : 9;
	long n = argc > 2 ? std::atol(argv[2]) : 100000;
	metric("yield_busy", trials, n, [] { std::this_thread::yield(); });
	metric("mutex_contention", trials, n, [] {
		std::lock_guard<std::mutex> g(m);
		std::this_thread::yield();
	});
	return 0;
}
