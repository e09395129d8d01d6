// prodcons.cc — 1000 threads through one bounded queue guarded by a
// std::mutex and two std::condition_variables: 500 producers, 500
// consumers; every item is consumed exactly once.
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>
#include "check.h"

int main()
{
	const int pairs = 500, per = 40, cap = 16;
	std::mutex m;
	std::condition_variable not_full, not_empty;
	std::deque<int> q;
	std::vector<int> seen(pairs * per, 0);
	std::vector<std::thread> t;
	t.reserve(2 * pairs);
	for (int p = 0; p < pairs; p++) {
		t.emplace_back([&, p] {
			for (int i = 0; i < per; i++) {
				std::unique_lock<std::mutex> lk(m);
				not_full.wait(lk, [&] { return (int)q.size() < cap; });
				q.push_back(p * per + i);
				not_empty.notify_one();
			}
		});
		t.emplace_back([&] {
			for (int i = 0; i < per; i++) {
				std::unique_lock<std::mutex> lk(m);
				not_empty.wait(lk, [&] { return !q.empty(); });
				int v = q.front();
				q.pop_front();
				not_full.notify_one();
				lk.unlock();
				seen[v]++;  // each value is popped by one consumer only
			}
		});
	}
	for (auto &th : t) th.join();
	CHECK(q.empty());
	for (int s : seen) CHECK(s == 1);
	OK("producer_consumer_1000");
	return 0;
}
