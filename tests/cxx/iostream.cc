// iostream.cc — std::cout from 8 threads, each line one << of a complete
// line, through std::osyncstream (C++20) by half the threads and under a
// std::mutex by the others.
//   iostream            writes the lines
//   iostream --check F  checks F (what it wrote): every line whole, every
//                       line there once
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <syncstream>
#include <thread>
#include <vector>
#include "check.h"

static const int nthreads = 8, nlines = 500;

static std::string line(int t, int i)
{
	// long enough to span stdio buffer boundaries now and then
	std::ostringstream s;
	s << "thread " << t << " line " << i << ' ' << std::string(60 + (i * 7 + t) % 90, (char)('a' + t)) << " end\n";
	return s.str();
}

static int check(const char *path)
{
	std::ifstream in(path);
	std::set<std::string> want, got;
	for (int t = 0; t < nthreads; t++)
		for (int i = 0; i < nlines; i++) want.insert(line(t, i));
	std::string l;
	int n = 0;
	while (std::getline(in, l)) {
		l += '\n';
		if (!want.count(l)) {
			std::fprintf(stderr, "torn or unknown line %d: %s", n + 1, l.c_str());
			return 1;
		}
		CHECK(got.insert(l).second);
		n++;
	}
	CHECK(n == nthreads * nlines);
	OK("iostream_whole_lines");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && std::string(argv[1]) == "--check") return check(argv[2]);
	std::mutex m;
	std::vector<std::thread> t;
	for (int k = 0; k < nthreads; k++)
		t.emplace_back([&, k] {
			for (int i = 0; i < nlines; i++) {
				if (k % 2) {
					std::osyncstream(std::cout) << line(k, i);
				} else {
					std::lock_guard<std::mutex> g(m);
					std::cout << line(k, i);
				}
				if (i % 50 == 0) std::this_thread::yield();
			}
		});
	for (auto &th : t) th.join();
	std::cout.flush();
	return 0;
}
