// tls.cc — thread_local objects with non-trivial constructors and
// destructors: each thread has its own, built on first use and destroyed
// when the thread exits (before join returns), in reverse order of
// construction (__cxa_thread_atexit), also when the thread was switched
// out while they were alive.
#include <mutex>
#include <string>
#include <thread>
#include <vector>
#include "check.h"

static std::mutex mu;
static std::vector<std::string> events;

static void note(const std::string &s)
{
	std::lock_guard<std::mutex> g(mu);
	events.push_back(s);
}

struct Tracked {
	std::string name;
	int uses = 0;
	explicit Tracked(std::string n) : name(std::move(n)) { note("ctor " + name); }
	~Tracked() { note("dtor " + name + " " + std::to_string(uses)); }
};

static Tracked &first(int id)
{
	thread_local Tracked a("a" + std::to_string(id));
	return a;
}

static Tracked &second(int id)
{
	thread_local Tracked b("b" + std::to_string(id));
	return b;
}

static void worker(int id)
{
	Tracked &a = first(id);
	std::this_thread::yield();
	Tracked &b = second(id);
	for (int i = 0; i < 5; i++) {
		a.uses++;
		b.uses += 2;
		std::this_thread::yield();  // the other threads use theirs meanwhile
	}
	CHECK(&first(id) == &a && a.name == "a" + std::to_string(id));
	CHECK(a.uses == 5 && b.uses == 10);
}

static std::vector<std::string> of_thread(int id)
{
	std::vector<std::string> v;
	std::string a = "a" + std::to_string(id), b = "b" + std::to_string(id);
	for (auto &e : events)
		if (e.find(" " + a) != std::string::npos || e.find(" " + b) != std::string::npos) v.push_back(e);
	return v;
}

int main()
{
	const int n = 8;
	std::vector<std::thread> t;
	for (int i = 0; i < n; i++) t.emplace_back(worker, i);
	for (int i = 0; i < n; i++) {
		t[i].join();
		// destroyed at the thread's exit, before join returned
		std::lock_guard<std::mutex> g(mu);
		auto v = of_thread(i);
		std::string s = std::to_string(i);
		CHECK(v.size() == 4);
		CHECK(v[0] == "ctor a" + s && v[1] == "ctor b" + s);
		CHECK(v[2] == "dtor b" + s + " 10" && v[3] == "dtor a" + s + " 5");
	}
	OK("thread_local_dtors");
	return 0;
}
