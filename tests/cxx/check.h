// check.h — the C++ tests' one assertion (tests/cxx/check-cxx.sh): a failed
// CHECK names the test, the line and the expression, and the program
// exits 1; each program prints "ok NAME" per test that passed.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(e) \
	((e) ? (void)0 : (std::fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #e), std::exit(1)))
#define OK(name) std::printf("ok %s\n", name)

// 1 when the program runs on green's threads, 0 on kernel threads
// (green-c++ --threads=1to1)
inline bool green_mode() { return __GREEN_THREADS__ == 1; }
